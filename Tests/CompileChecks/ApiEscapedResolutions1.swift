// swift-version: 6
// expect: clean
// escapedResolutions' sample in its doc comment, verbatim.
import Forge

// The sample of Sources/Forge/Diagnostics/EscapedResolutions.swift, from here to the end.
Container.Diagnostics.escapedResolutions = .stop   // make every escape stop the test run where it happens
