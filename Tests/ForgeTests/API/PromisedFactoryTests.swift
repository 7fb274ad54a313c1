// Promised factories: a module declares, the app supplies; tryResolve() and ResolutionError.
import Forge
import Testing

protocol HTTPClient: AnyObject {}
final class LiveHTTPClient: HTTPClient, Sendable {}

/// What the self-resolving factory's tryResolve() threw, read by the test after the resolution.
private let caughtInsideItsOwnClosure = Locked<ResolutionError?>(nil)

extension Container {
    fileprivate static let httpClient = Factory<HTTPClient>.promised()
    fileprivate static let cachedHTTPClient = Factory<HTTPClient>.promised(scope: .cached)
    fileprivate static let endpoint = ParameterFactory<String, Tracked>.promised()
    fileprivate static let testedClient = Factory<HTTPClient>.promised().onTest { LiveHTTPClient() }
    fileprivate static let selfResolving: Factory<Tracked> = Factory(scope: .cached) {
        do throws(ResolutionError) {
            _ = try selfResolving.tryResolve()
        } catch {
            caughtInsideItsOwnClosure.value = error
        }
        return Tracked()
    }
}

@Suite struct PromisedFactoryTests {
    @Test func aRegistrationFulfilsThePromise() {
        Container.Registrations.isolated {
            let client = LiveHTTPClient()
            Container.httpClient.register { client }
            #expect(Container.httpClient() === client)
            #expect((try? Container.httpClient.tryResolve()) === client)
        }
    }

    @Test("tryResolve() throws what the process would stop with: the factory, its site and the world")
    func tryResolveThrowsForAnUnfulfilledPromise() {
        Container.Registrations.isolated(named: "checkout tests") {
            let error = #expect(throws: ResolutionError.self) { try Container.httpClient.tryResolve() }
            #expect(error?.kind == .promiseNotFulfilled)
            #expect(error?.factory.hasPrefix("Factory<HTTPClient> (ForgeTests/PromisedFactoryTests.swift:") == true)
            #expect(error?.world.hasPrefix("the isolated world \"checkout tests\" (made at ForgeTests/") == true)
            #expect(error?.description.contains("registerAllServices()") == true)
            #expect(error?.description.contains(error?.world ?? "-") == true)
            #expect(error?.chain == [])
        }
    }

    @Test func aParameterFactoryCanBePromised() {
        Container.Registrations.isolated {
            #expect(throws: ResolutionError.self) { try Container.endpoint.tryResolve("/cart") }
            Container.endpoint.register { path in Tracked(id: path.count) }
            #expect((try? Container.endpoint.tryResolve("/cart"))?.id == 5)
        }
    }

    @Test("A cached instance made from a registration outlives reset(.registration)")
    func aCachedInstanceStillResolves() {
        Container.Registrations.isolated {
            let client = LiveHTTPClient()
            Container.cachedHTTPClient.register { client }
            _ = Container.cachedHTTPClient()
            Container.cachedHTTPClient.reset(.registration)
            #expect((try? Container.cachedHTTPClient.tryResolve()) === client)
            Container.cachedHTTPClient.reset(.scope)
            #expect(throws: ResolutionError.self) { try Container.cachedHTTPClient.tryResolve() }
        }
    }

    @Test func aContextCanFulfilThePromise() {
        Container.Registrations.isolated(runContext: .init(arguments: ["Forge.xctest"])) {
            #expect((try? Container.testedClient.tryResolve()) is LiveHTTPClient)
        }
        _ = Container.Registrations.isolated(runContext: .init(arguments: ["App"])) {
            #expect(throws: ResolutionError.self) { try Container.testedClient.tryResolve() }
        }
    }

    @Test("tryResolve() inside the factory's own closure throws the cycle")
    func tryResolveThrowsACycle() {
        Container.Registrations.isolated {
            _ = Container.selfResolving()
            let error = caughtInsideItsOwnClosure.value
            #expect(error?.kind == .circularDependency)
            #expect(error?.factory.contains("PromisedFactoryTests.swift") == true)
            #expect(error?.description.contains("circular dependency") == true)
        }
    }

    @Test("Resolving an unfulfilled promise stops with the factory, its site, the world and a sample")
    func theMessage() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Container.httpClient()
        }
        let message = standardError(result)
        #expect(message.contains("Forge: Factory<HTTPClient> (ForgeTests/PromisedFactoryTests.swift:"))
        #expect(message.contains("is promised, and nothing is registered for it in the process's world"))
        #expect(message.contains("from registerAllServices() (extension Container: @retroactive AutoRegistering)"))
        #expect(
            message.contains("calling register { /* make one */ } on the factory declared at ForgeTests/"), "\(message)"
        )
    }

    @Test("In an isolated world, the message says which")
    func theMessageInAnIsolatedWorld() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            Container.Registrations.isolated(named: "the cart test") {
                _ = Container.httpClient()
            }
        }
        #expect(standardError(result).contains("in the isolated world \"the cart test\" (made at ForgeTests/"))
    }
}

/// What the per-value factory's tryResolve() threw inside its own closure.
private let caughtInsideAValuesClosure = Locked<ResolutionError?>(nil)

extension Container {
    fileprivate static let promisedPerValue = ParameterFactory<String, Tracked>.promised(scope: .cached)
        .scopeOnParameters
    fileprivate static let promisedExpiring = Factory<Tracked>.promised(scope: .cached).timeToLive(10)
    fileprivate static let selfResolvingPerValue: ParameterFactory<Int, Tracked> =
        ParameterFactory<Int, Tracked>(scope: .cached) { n in
            do throws(ResolutionError) {
                _ = try selfResolvingPerValue.tryResolve(n)
            } catch {
                caughtInsideAValuesClosure.value = error
            }
            return Tracked(id: n)
        }.scopeOnParameters
}

extension PromisedFactoryTests {
    @Suite struct TryResolveWithModifiers {
        @Test("Per value: tryResolve() sees the value's kept instance, and the value's own creation")
        func perValue() {
            Container.Registrations.isolated {
                Container.promisedPerValue.register { _ in Tracked(id: 1) }
                let kept = Container.promisedPerValue("a")
                Container.promisedPerValue.reset(.registration)
                #expect((try? Container.promisedPerValue.tryResolve("a")) === kept)
                #expect(throws: ResolutionError.self) { try Container.promisedPerValue.tryResolve("b") }
            }
        }

        @Test("Per value, a cycle is found from the value's own creation, with cycle detection off too")
        func perValueCycle() async {
            await #expect(processExitsWith: .success) {
                // In a process of its own: the switch is global. The claim on the value's cell tells, without the
                // chain.
                Container.Diagnostics.detectsCycles = false
                _ = Container.selfResolvingPerValue(7)
                precondition(caughtInsideAValuesClosure.value?.kind == .circularDependency)
            }
        }

        @Test("An expired instance does not fulfil a promise")
        func expired() {
            let now = Locked(0.0)
            Container.Registrations.isolated(runContext: .init(now: { now.value })) {
                Container.promisedExpiring.register { Tracked() }
                _ = Container.promisedExpiring()
                Container.promisedExpiring.reset(.registration)
                #expect((try? Container.promisedExpiring.tryResolve()) != nil)
                now.value = 10
                #expect(throws: ResolutionError.self) { try Container.promisedExpiring.tryResolve() }
            }
        }
    }
}
