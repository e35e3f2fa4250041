package engine

// Version is fixstep's version, written into replays and reports.
const Version = "0.1.0"
