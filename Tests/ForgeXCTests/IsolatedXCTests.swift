// XCTest with IsolatedTestCase: each test method runs in its own world, setUp included; no push/pop.
import Forge
import ForgeTesting
import XCTest

final class IsolatedXCTests: IsolatedTestCase {
    override var isStrict: Bool { true }

    override func setUp() {
        super.setUp()
        Container.payments.register { MockPayments() }
    }

    func testSetUpRegistrationApplies() {
        XCTAssertEqual(Container.payments().pay(), "mock")
    }

    func testRegistrationsDoNotLeakOut() {
        let mock = Container.payments()
        XCTAssertTrue(mock is MockPayments)
        XCTAssertTrue(Container.payments() === mock)
    }

    func testWorkThatCarriesTheWorldSeesTheMock() {
        let registrations = Container.Registrations.capture()
        assertInADetachedTask { registrations.run { Container.payments() is MockPayments } }
    }

    func testTheProcessWorldIsUntouched() {
        // The detached task escapes the test's world on purpose: not reported, for this test only (XCTest runs one at a
        // time).
        let policy = Container.Diagnostics.escapedResolutions
        Container.Diagnostics.escapedResolutions = .off
        defer { Container.Diagnostics.escapedResolutions = policy }
        assertInADetachedTask { Container.payments() is LivePayments }
    }

    /// Asserts that `condition`, run in a detached task, holds, waiting for it up to 10 seconds.
    private func assertInADetachedTask(
        _ condition: @escaping @Sendable () -> Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        let outside = Task.detached(operation: condition)
        let expectation = expectation(description: "detached task")
        Task {
            let holds = await outside.value
            XCTAssertTrue(holds, file: file, line: line)
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 10)
    }
}

/// XCTest's `setUp() async throws` is IsolatedTestCase's registrations that await and throw: it runs in the test's
/// world too, so the test case needs no hook of its own (a throw there fails the test, as XCTest does).
final class AsyncSetUpXCTests: IsolatedTestCase {
    override var isStrict: Bool { true }

    override func setUp() async throws {
        try await super.setUp()
        await Task.detached {}.value  // another task: setUp suspends here, and registers after it
        Container.payments.register { MockPayments() }
    }

    func testWhatAnAsyncSetUpRegisteredAfterAnAwaitApplies() {
        XCTAssertEqual(Container.payments().pay(), "mock")  // strict: a live closure would fail the test
    }
}

extension Container.Scope {
    fileprivate static let xcSession = Cached(name: "xcSession")
}

private final class XCClient: Sendable {}
private final class XCRepository: Sendable {
    let client: XCClient
    init(_ client: XCClient) { self.client = client }
}

extension Container {
    fileprivate static let xcClient = Factory(scope: .xcSession) { XCClient() }.liveInTests
    fileprivate static let xcRepository = Factory(scope: .cached) { XCRepository(xcClient()) }.liveInTests
}

/// Under IsolatedTestCase, a captive dependency fails the test: the failure is caught here, to check it.
final class CaptiveDependencyXCTests: CapturingTestCase {
    override var isStrict: Bool { true }
    override var capturedMessage: String { "Forge: captive dependency." }

    func testACaptiveDependencyFailsTheTest() throws {
        try XCTSkipUnless(
            Container.Diagnostics.captiveDependencies == .warn, "release builds look for none by default")
        _ = Container.xcRepository()
        XCTAssertEqual(capturedFailures.count, 1)
        XCTAssertTrue(capturedFailures.first?.contains("Factory<XCRepository>") == true)
        XCTAssertTrue(capturedFailures.first?.contains("testACaptiveDependencyFailsTheTest") == true)
    }
}
