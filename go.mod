module fixstep

go 1.24
