// swift-version: 6
// expect-diagnostic: circular reference
// GettingStarted.md says two factories whose closures name each other do not compile when neither has a type.
import Forge

final class Screen {
    init(coordinator: @escaping () -> Coordinator) {}
}
final class Coordinator {
    init(screen: @escaping () -> Screen) {}
}

extension Container {
    static let coordinator = Factory(scope: .shared) { Coordinator(screen: { screen() }) }
    static let screen = Factory { Screen(coordinator: { coordinator() }) }
}
