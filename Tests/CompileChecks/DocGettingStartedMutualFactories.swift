// swift-version: 6
// expect: clean
// GettingStarted.md's two factories whose closures name each other, one annotated: the types they make first, then
// the sample verbatim. (Without the annotation the compiler says "circular reference".)
import Forge

nonisolated final class Screen {
    init(coordinator: @escaping () -> Coordinator) {}
}
nonisolated final class Coordinator {
    init(screen: @escaping () -> Screen) {}
}

// The sample of Sources/Forge/Forge.docc/Articles/GettingStarted.md, from here to the end.
extension Container {
    static let coordinator: Factory<Coordinator> = Factory(scope: .shared) { Coordinator(screen: { screen() }) }
    static let screen = Factory { Screen(coordinator: { coordinator() }) }
}
