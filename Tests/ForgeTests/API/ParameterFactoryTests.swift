// Parameter factories: the parameter reaches the closure, registrations take it too, and scopes keep the first.
import Forge
import Testing

extension Container {
    static let numbered = ParameterFactory<Int, Numbered> { n in Numbered(n) }
    fileprivate static let cachedNumbered = ParameterFactory<Int, Numbered>(scope: .cached) { n in Numbered(n) }
}

@Suite struct ParameterFactoryTests {
    @Test func passesTheParameter() {
        Container.Registrations.isolated {
            #expect(Container.numbered(42).n == 42)
            #expect(Container.numbered(7).n == 7)
        }
    }

    @Test func registerTakesTheParameterToo() {
        Container.Registrations.isolated {
            Container.numbered.register { n in Numbered(n * 10) }
            #expect(Container.numbered(4).n == 40)
            Container.numbered.reset()
            #expect(Container.numbered(4).n == 4)
        }
    }

    @Test func aScopedParameterFactoryKeepsTheFirstInstance() {
        Container.Registrations.isolated {
            let first = Container.cachedNumbered(1)
            #expect(Container.cachedNumbered(2) === first)
            Container.Scope.cached.reset()
            #expect(Container.cachedNumbered(3).n == 3)
        }
    }
}
