// swift-version: 6
// expect: clean
// Testing.md's sample of a test without the trait that carries the process's world into the threads it starts: the
// imports and the factory it uses first, then the sample verbatim.
import Dispatch
import Forge
import Testing

final class Loader: Sendable {}
extension Container {
    static let loader = Factory { Loader() }
}

// The sample of Sources/Forge/Forge.docc/Articles/Testing.md, from here to the end.
@Test func loadsOnManyThreads() {   // no trait: the process's world, on purpose
    let processWorld = Container.Registrations.capture()
    DispatchQueue.concurrentPerform(iterations: 8) { _ in processWorld.run { _ = Container.loader() } }
}
