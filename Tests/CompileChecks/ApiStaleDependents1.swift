// swift-version: 6
// expect: clean
// staleDependents' sample in its doc comment, verbatim.
import Forge

// The sample of Sources/Forge/Diagnostics/StaleDependents.swift, from here to the end.
Container.Diagnostics.staleDependents = .stop   // in a test run: make every late registration fail loudly
