// Factory 1.3.7's public API as its users write it, in Swift 5 language mode: reset options, projected values,
// Registrations.isEmpty, and XCTest push/pop around them.
import Forge
import XCTest

/// A service whose text tells its instances apart.
class CountingService: MyServiceType {
    func text() -> String { "instance \(ObjectIdentifier(self))" }
}

extension Container {
    static let cachedService = Factory<MyServiceType>(scope: .cached) { CountingService() }
    static let sharedCounting = Factory<CountingService>(scope: .shared) { CountingService() }
    static let scopedParameter = ParameterFactory<Int, MockServiceN>(scope: .cached) { MockServiceN($0) }
}

class RefreshableViewModel {
    @Injected(Container.cachedService) var service
    @LazyInjected(Container.cachedService) var lazyService
    @WeakLazyInjected(Container.sharedCounting) var weakService

    func refresh() {
        $service.resolve(reset: .scope)
    }

    func refreshLazy() {
        $lazyService.resolve()
    }

    func refreshWeak() {
        $weakService.resolve(reset: .none)
    }
}

final class FactoryOneThreeSevenTests: XCTestCase {
    override func setUp() {
        super.setUp()
        Container.Registrations.push()
    }

    override func tearDown() {
        super.tearDown()
        Container.Registrations.pop()
    }

    func testResetOptions() {
        Container.cachedService.register { MockService2() }
        let mock = Container.cachedService()
        Container.cachedService.reset(.registration)
        XCTAssertTrue(Container.cachedService() as AnyObject === mock as AnyObject)
        Container.cachedService.reset(.scope)
        XCTAssertTrue(Container.cachedService() is CountingService)
        Container.cachedService.register { MockService2() }
        Container.cachedService.reset(.all)
        XCTAssertTrue(Container.cachedService() is CountingService)

        let five = Container.scopedParameter(5)
        Container.scopedParameter.reset(.scope)
        XCTAssertFalse(Container.scopedParameter(5) === five)
    }

    func testProjectedValues() {
        let model = RefreshableViewModel()
        let first = model.service.text()
        XCTAssertEqual(model.lazyService.text(), first)
        model.refresh()
        XCTAssertNotEqual(model.service.text(), first)
        XCTAssertEqual(model.lazyService.text(), first)
        model.refreshLazy()
        XCTAssertEqual(model.lazyService.text(), model.service.text())

        let held = Container.sharedCounting()
        model.refreshWeak()
        XCTAssertTrue(model.weakService === held)
    }

    /// Factory 1.3.7's own test of the reset options, step by step, in a world of its own so that its resets stay
    /// there.
    func testResetOptionsAsFactoryTestsThem() {
        Container.Registrations.isolated {
            Container.Registrations.reset()
            Container.Scope.reset()

            func registerAndResolve() {
                Container.cachedService.register {
                    MyService()
                }
                let _ = Container.cachedService()
            }

            XCTAssertTrue(Container.Registrations.isEmpty)
            XCTAssertTrue(Container.Scope.cached.isEmpty)

            registerAndResolve()
            Container.cachedService.reset(.none)
            XCTAssertFalse(Container.Registrations.isEmpty)
            XCTAssertFalse(Container.Scope.cached.isEmpty)

            Container.cachedService.reset(.all)
            XCTAssertTrue(Container.Registrations.isEmpty)
            XCTAssertTrue(Container.Scope.cached.isEmpty)

            registerAndResolve()
            Container.cachedService.reset(.registration)
            XCTAssertTrue(Container.Registrations.isEmpty)
            XCTAssertFalse(Container.Scope.cached.isEmpty)

            registerAndResolve()
            Container.cachedService.reset(.scope)
            XCTAssertFalse(Container.Registrations.isEmpty)
            XCTAssertTrue(Container.Scope.cached.isEmpty)
        }
    }

    func testRegistrationsIsEmpty() {
        Container.Registrations.isolated {
            XCTAssertTrue(Container.Registrations.isEmpty)
            Container.cachedService.register { MockService2() }
            XCTAssertFalse(Container.Registrations.isEmpty)
            Container.cachedService.reset()
            XCTAssertTrue(Container.Registrations.isEmpty)
        }
    }
}
