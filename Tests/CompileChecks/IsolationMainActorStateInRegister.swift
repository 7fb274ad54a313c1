// swift-version: 6
// expect-diagnostic: main actor-isolated var 'requests' can not be referenced from a nonisolated context
// A closure written on the main actor that reads main-actor state cannot be registered: Forge may call it from any
// thread, so it is @Sendable and nonisolated, and the compiler says so instead of letting it run off the main actor.
import Forge

final class Service: Sendable {}

extension Container {
    static let service = Factory { Service() }
}

@MainActor var requests = 0

@MainActor func setUpPreview() {
    Container.service.register {
        _ = requests
        return Service()
    }
}
