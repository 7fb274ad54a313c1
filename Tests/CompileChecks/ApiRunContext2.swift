// swift-version: 6
// expect: clean
// RunContext's sample of a context made from the process's, verbatim: it needs nothing but Forge.
import Forge

// The sample of Sources/Forge/Worlds/RunContext.swift, from here to the end.
var context = SharedContainer.RunContext.process
context.arguments.append("--offline")
