// The trait's registrations may await and throw: they run in the test's world before its body, for each test of a
// suite, and a throw fails the test with the error, without running the body.
import Foundation
import Testing

@_spi(ForgeTesting) @testable import Forge
@testable import ForgeTesting

/// A test database, as a suite's fixture makes one: asynchronously, by a call that can throw.
private final class TraitDatabase: Sendable {
    let serial: Int
    let origin: String
    private let rows = Locked<[Int]>([])

    init(serial: Int, origin: String) {
        self.serial = serial
        self.origin = origin
    }

    func insert(_ row: Int) { rows.mutate { $0.append(row) } }
    var allRows: [Int] { rows.value }

    /// How many were made: each gets the next serial.
    static let made = Counter()

    /// Made on another task, which the caller awaits: registrations that call it suspend before they register.
    static func make(origin: String = "made after an await") async throws -> TraitDatabase {
        let serial = made.increment()
        return await Task.detached { TraitDatabase(serial: serial, origin: origin) }.value
    }
}

/// Resolves the database: a composer, safe to run live; what it resolves is checked in a strict test.
private final class TraitRepository: Sendable {
    let database = Container.traitDatabase()
}

private struct DatabaseUnavailable: Error, CustomStringConvertible {
    var description: String { "DatabaseUnavailable(the test server is down)" }
}

extension Container {
    fileprivate static let traitDatabase = Factory { TraitDatabase(serial: 0, origin: "live") }
    fileprivate static let traitRepository = Factory { TraitRepository() }.liveInTests
    fileprivate static let traitForgotten = Factory { TraitDatabase(serial: 0, origin: "live") }
}

/// Registrations of the kind every trait took before they could await: synchronous, and throwing nothing.
private let registerSynchronously: @Sendable () -> Void = {
    Container.traitDatabase.register { TraitDatabase(serial: 0, origin: "registered synchronously") }
}

@Suite struct IsolatedRegistrationsTraitTests {
    @Test(
        "Registrations that await and can throw run before the body, and are in force in it",
        .isolatedRegistrations {
            let database = try await TraitDatabase.make()
            Container.traitDatabase.register { database }
        })
    func registrationsThatAwaitRunBeforeTheBody() async {
        #expect(Container.traitDatabase().origin == "made after an await")
        #expect(await Task { Container.traitRepository().database.origin }.value == "made after an await")
    }

    @Test(
        "Synchronous registrations, in a closure of their own type, still register",
        .isolatedRegistrations(.strict, registerSynchronously))
    func synchronousRegistrationsStillRegister() {
        #expect(Container.traitDatabase().origin == "registered synchronously")
    }

    @Test("A throw fails the test with the error, at the test's line, and the body does not run")
    func aThrowFailsTheTest() async throws {
        let test = try #require(Test.current)
        let bodyRan = Locked(false)
        let trait: IsolatedRegistrationsTrait = .isolatedRegistrations {
            _ = try await TraitDatabase.make()
            throw DatabaseUnavailable()
        }
        // Recorded, not rethrown: Swift Testing would record the error a second time.
        let issues = try await collectingIssues(of: trait) { _ in bodyRan.value = true }
        #expect(!bodyRan.value)
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].error is DatabaseUnavailable)
        #expect(
            issues[0].comment.contains(
                """
                Forge: the registrations of an .isolatedRegistrations trait threw DatabaseUnavailable(the test \
                server is down): test aThrowFailsTheTest() did not run.
                """), "\(issues[0].comment)")
        #expect(issues[0].severity == .error)
        #expect(issues[0].sourceLocation == test.sourceLocation)
        #expect(issues[0].onTheTestsTask)
    }

    @Test("A throw in a suite's registrations: the test's own registrations and its body do not run")
    func aThrowInTheSuitesRegistrations() async throws {
        let ran = Locked<[String]>([])
        let suites: IsolatedRegistrationsTrait = .isolatedRegistrations(.strict) { throw DatabaseUnavailable() }
        let tests: IsolatedRegistrationsTrait = .isolatedRegistrations { ran.mutate { $0.append("the test's") } }
        // As Swift Testing runs a test of a suite with the trait that has its own: the suite's scope around the test's.
        let issues = try await collectingIssues(of: suites) { _ in
            let inner = try await collectingIssues(of: tests) { _ in ran.mutate { $0.append("the body") } }
            ran.mutate { $0.append("the test's trait, with \(inner.count) issues") }
        }
        #expect(ran.value.isEmpty)
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].error is DatabaseUnavailable)
    }

    @Test("A throw in a test's registrations, after its suite's registrations ran: the body does not run")
    func aThrowInTheTestsRegistrations() async throws {
        let ran = Locked<[String]>([])
        let suites: IsolatedRegistrationsTrait = .isolatedRegistrations {
            let database = try await TraitDatabase.make(origin: "the suite's")
            Container.traitDatabase.register { database }
        }
        let tests: IsolatedRegistrationsTrait = .isolatedRegistrations {
            ran.mutate { $0.append("the test's, over \(Container.traitDatabase().origin)") }
            throw DatabaseUnavailable()
        }
        let issues = try await collectingIssues(of: suites) { _ in
            let inner = try await collectingIssues(of: tests) { _ in ran.mutate { $0.append("the body") } }
            try #require(inner.count == 1, "\(inner)")
            #expect(inner[0].error is DatabaseUnavailable)
        }
        #expect(issues.isEmpty, "\(issues)")
        #expect(ran.value == ["the test's, over the suite's"])
    }

    @Test("A cancelled test's error goes to Swift Testing as it was thrown, unrecorded, and the body does not run")
    func aCancelledTestsErrorIsRethrown() async throws {
        let test = try #require(Test.current)
        let bodyRan = Locked(false)
        let issues = CollectedIssues()
        let trait: IsolatedRegistrationsTrait = .isolatedRegistrations {
            withUnsafeCurrentTask { $0?.cancel() }
            try Task.checkCancellation()
        }
        // In a task of its own, so that only the trait's scope is cancelled, not this test.
        let outcome = await Task {
            try await trait.provideScope(for: test, testCase: nil, recording: issues.record) { bodyRan.value = true }
        }.result
        #expect(throws: CancellationError.self) { try outcome.get() }
        #expect(issues.all.isEmpty, "\(issues.all)")
        #expect(!bodyRan.value)
    }

    @Test("In a strict test, what async registrations register and resolve is the test's: nothing is reported")
    func strictAsyncRegistrationsReportNothing() async throws {
        let trait: IsolatedRegistrationsTrait = .isolatedRegistrations(.strict) {
            let database = try await TraitDatabase.make()
            Container.traitDatabase.register { database }
            async let fromAChildTask = Container.traitRepository().database
            #expect(await fromAChildTask === database)
        }
        let issues = try await collectingIssues(of: trait) { _ in
            #expect(Container.traitRepository().database.origin == "made after an await")
        }
        #expect(issues.isEmpty, "\(issues)")
    }

    @Test("A live closure that async registrations run is reported in a strict test, as a synchronous one's is")
    func aLiveClosureTheRegistrationsRunIsReported() async throws {
        let trait: IsolatedRegistrationsTrait = .isolatedRegistrations(.strict) {
            _ = try await TraitDatabase.make()
            _ = Container.traitForgotten()
        }
        let issues = try await collectingIssues(of: trait) { _ in }
        try #require(issues.count == 1, "\(issues)")
        #expect(issues[0].comment.contains("Forge: live closure in a strict test. Factory<TraitDatabase>"))
        #expect(issues[0].onTheTestsTask)
        #expect(issues[0].error == nil)
    }

    /// A failed `#require` and a cancellation are Swift Testing's, as in a test's body: the first recorded once, by
    /// `#require`, the second no issue.
    @Test("Under Swift Testing, a throw is recorded once, as the error with Forge's comment, and no body runs")
    func underSwiftTesting() async throws {
        let output = try #require(await withDeadline(seconds: 300) { await awaitingAThread(RunApart.run) })
        let lines = output.split(separator: "\n")
        func issues(of test: String) -> [Substring] { lines.filter { $0.contains("Test \(test) recorded an issue") } }
        #expect(!output.contains(RunApart.bodyRan), "\(output)")

        let thrown = issues(of: "registrationsThatThrow()")
        try #require(thrown.count == 1, "\(output)")
        #expect(thrown[0].contains("Caught error: DatabaseUnavailable(the test server is down)"), "\(output)")
        #expect(
            output.contains("Forge: the registrations of an .isolatedRegistrations trait threw DatabaseUnavailable"),
            "\(output)")

        let required = issues(of: "registrationsThatRequire()")
        try #require(required.count == 1, "#require's own issue only: \(output)")
        #expect(required[0].contains("Expectation failed"), "\(output)")
        #expect(issues(of: "registrationsOfACancelledTest()").isEmpty, "\(output)")
        #expect(output.contains("Test registrationsOfACancelledTest() was cancelled"), "\(output)")
    }
}

/// A suite whose registrations await and throw: they run for each of its tests, in the test's world.
@Suite(
    .isolatedRegistrations(.strict) {
        let database = try await TraitDatabase.make()
        Container.traitDatabase.register { database }
    })
struct AsyncRegistrationsOfASuiteTests {
    /// Signalled by each case of ``eachTestCaseGetsItsOwn(n:)``: all are alive at once once it has been 16 times.
    private static let registered = Occurrences("a test case of the suite found its database")
    private static let serials = Locked<Set<Int>>([])

    @Test("Each test of the suite gets the suite's registrations, made for it", arguments: 0..<16)
    func eachTestCaseGetsItsOwn(n: Int) async {
        let database = Container.traitDatabase()
        #expect(database.origin == "made after an await")
        #expect(Self.serials.withLock { $0.insert(database.serial).inserted }, "one database for each test case")
        database.insert(n)
        // The cases run in parallel: each waits for the others, so that all their worlds are alive at once.
        Self.registered.signal()
        await Self.registered.expect(16, within: 60)
        #expect(await Task { Container.traitDatabase() }.value === database)
        #expect(database.allRows == [n])
    }

    @Test(
        "A test's own registrations run inside the suite's world, after the suite's registrations",
        .isolatedRegistrations {
            #expect(Container.traitDatabase().origin == "made after an await")
            let database = try await TraitDatabase.make(origin: "the test's")
            Container.traitDatabase.register { database }
        })
    func aTestsOwnRegistrationsRunAfterTheSuites() {
        #expect(Container.traitDatabase().origin == "the test's")
    }
}

/// Tests that only a test process of their own runs (``RunApart/run()``), so that what Swift Testing records of them
/// is checked instead of failing the run; skipped in the run of the whole suite.
enum RunApart {
    /// Set in the environment of that process.
    static let variable = "FORGE_TRAIT_REGISTRATIONS_RUN_APART"
    static var isRunning: Bool { ProcessInfo.processInfo.environment[variable] != nil }
    /// What the body of each of these tests prints: it should not run.
    static let bodyRan = "a body whose registrations threw ran"

    /// Runs ``RegistrationsRunApartTests`` in a process of their own, the test program run again, and returns what
    /// Swift Testing printed there. Blocks until that process ends.
    @Sendable static func run() -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
        process.arguments = ["--testing-library", "swift-testing", "--filter", "RegistrationsRunApartTests"]
        process.environment = ProcessInfo.processInfo.environment.merging([variable: "1"]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { return "could not run \(CommandLine.arguments[0]): \(error)" }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: printed, as: UTF8.self)
    }
}

@Suite(.enabled(if: RunApart.isRunning, "run apart, by IsolatedRegistrationsTraitTests"))
struct RegistrationsRunApartTests {
    @Test(.isolatedRegistrations { throw DatabaseUnavailable() })
    func registrationsThatThrow() { print(RunApart.bodyRan) }

    @Test(
        .isolatedRegistrations {
            let database: TraitDatabase? = nil
            _ = try #require(database, "no database")
        })
    func registrationsThatRequire() { print(RunApart.bodyRan) }

    @Test(
        .isolatedRegistrations {
            withUnsafeCurrentTask { $0?.cancel() }
            try Task.checkCancellation()
        })
    func registrationsOfACancelledTest() { print(RunApart.bodyRan) }
}
