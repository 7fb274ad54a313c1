// swift-version: 6
// expect: clean
// captiveDependencies' sample in its doc comment, verbatim.
import Forge

// The sample of Sources/Forge/Diagnostics/CaptiveDependencies.swift, from here to the end.
Container.Diagnostics.captiveDependencies = .stop   // in a test run: make every captive pair fail loudly
