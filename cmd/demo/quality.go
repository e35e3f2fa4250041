package main

import "github.com/fixstep/fixstep/cmd/demo/arena"

// knobs are what each quality level (0 lowest .. 4) changes in the demo.
type knobs struct {
	scale  float32 // render scale of the world (dynamic resolution)
	msaa   int     // MSAA samples (used at scale 1 only)
	debris int     // debris particles alive at most
	graph  int     // frames in the overlay's graph
}

var levels = [5]knobs{
	{scale: 0.5, msaa: 0, debris: 0, graph: 60},
	{scale: 0.625, msaa: 0, debris: 64, graph: 120},
	{scale: 0.75, msaa: 0, debris: 128, graph: 180},
	{scale: 0.875, msaa: 0, debris: 256, graph: 300},
	{scale: 1, msaa: 4, debris: arena.MaxDebris, graph: 300},
}

func knobsAt(level int) knobs { return levels[min(max(level, 0), len(levels)-1)] }
