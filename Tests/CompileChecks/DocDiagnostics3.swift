// swift-version: 6
// expect: clean
// Diagnostics.md's sample of printTree, verbatim.
import Forge

// The sample of Sources/Forge/Forge.docc/Articles/Diagnostics.md, from here to the end.
Container.Diagnostics.trace = Container.Diagnostics.printTree
