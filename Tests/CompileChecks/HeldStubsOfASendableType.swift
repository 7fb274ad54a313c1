// swift-version: 6
// expect-diagnostic: call to main actor-isolated global function 'countOnTheMainActor()' in a synchronous nonisolated
// main-actor-default: expect-diagnostic: call to main actor-isolated global function 'countOnTheMainActor()'
// With ForgeTesting imported, a factory whose instance type is `Sendable` is registered as app code's: its closure is
// `@Sendable` and nonisolated even where it is written on the main actor, so it cannot touch the main actor's state
// from a thread that resolves it.
import Forge
import ForgeTesting

@MainActor func countOnTheMainActor() {}
nonisolated final class SendableStub: Sendable {}
extension Container {
    static let sendableStub = Factory { SendableStub() }
}

@MainActor func aMainActorTest() {
    Container.sendableStub.register {
        countOnTheMainActor()
        return SendableStub()
    }
}
