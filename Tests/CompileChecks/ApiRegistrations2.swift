// swift-version: 6
// expect: clean
// Registrations.isEmpty's sample in its doc comment: its first line only. The next one reads `isEmpty` as a bare
// expression, to show its value, which warns that the value is unused.
import Forge

// The sample of Sources/Forge/Registrations.swift, from here to the end.
Container.Registrations.reset()
