// The decorator: a global hook that sees every resolved instance.
import Forge
import Testing

final class DecoratedMarker {}

extension Container {
    fileprivate static let decorated = Factory { DecoratedMarker() }
}

/// The decorator is global, so these tests run one at a time, with the other suites that set it (GlobalStateTests),
/// and restore it.
extension GlobalStateTests {
    @Suite(.serialized) struct DecoratorTests {
        @Test func seesEveryResolvedInstance() {
            let seen = Counter()
            Container.Decorator.decorate = { instance in
                if instance is DecoratedMarker { seen.increment() }
            }
            defer { Container.Decorator.decorate = nil }
            Container.Registrations.isolated {
                _ = Container.decorated()
                _ = Container.decorated()
            }
            #expect(seen.value == 2)
            #expect(Container.Decorator.decorate != nil)
        }
    }
}
