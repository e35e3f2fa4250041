module fixstep

go 1.26.0

require (
	github.com/go-gl/gl v0.0.0-20231021071112-07e5d0ea2e71 // indirect
	github.com/go-gl/mathgl v1.2.0 // indirect
	github.com/veandco/go-sdl2 v0.4.39 // indirect
	golang.org/x/image v0.47.0 // indirect
)
