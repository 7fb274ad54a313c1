// Factory.sendable: a factory whose closure and instance the compiler checks are Sendable.
import Forge
import Testing

/// A service the compiler can check is `Sendable`.
final class SendableClock: Sendable {
    let name: String
    init(_ name: String) { self.name = name }
}

// Those marked liveInTests are resolved by threads in the process's world, outside every test's task tree, while
// strict tests may run in parallel: running them live there is safe, and no escape (EscapedLiveClosures).
extension Container {
    fileprivate static let clock = Factory.sendable(scope: .singleton) { SendableClock("system") }.liveInTests
}

@Suite struct SendableFactoryTests {
    @Test func aSendableFactoryResolvesAndRegistersLikeAnyOther() async {
        await Container.Registrations.isolated {
            let clock = Container.clock()
            #expect(clock.name == "system")
            #expect(await Task.detached { Container.clock() }.value.name == "system")
            Container.clock.register { SendableClock("test") }
            #expect(Container.clock().name == "test")
            #expect(Container.clock() !== clock)
        }
    }
}
