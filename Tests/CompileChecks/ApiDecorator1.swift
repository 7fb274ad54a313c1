// swift-version: 6
// expect: clean
// Decorator's sample in its doc comment, verbatim: it needs nothing but Forge.
import Forge

// The sample of Sources/Forge/Diagnostics/Decorator.swift, from here to the end.
Container.Decorator.decorate = { instance in print("resolved", instance) }
