// Forge: private worlds, so that tests running in parallel never see each other's registrations.

extension SharedContainer.Registrations {
    /// Runs `body` in a private world of registrations, push/pop stack and scope caches.
    ///
    /// Inside, every `register`, `push()`/`pop()` and cached instance (singletons and custom scopes included)
    /// belongs to this call and to the tasks it starts: child tasks and `Task { }` inherit the world;
    /// `Task.detached` does not, and uses the process's world. Nothing made inside leaks out, and nothing from
    /// other isolated calls leaks in, so tests that run in parallel stay independent.
    ///
    /// A top-level call starts from the app's baseline: every factory's own closure plus what
    /// ``AutoRegistering/registerAllServices()`` registered, with empty caches. A call nested in another starts
    /// from a copy of the enclosing world's registrations, with empty caches.
    ///
    /// ```swift
    /// @Test func checkoutUsesTheMockAPI() {
    ///     Container.Registrations.isolated {
    ///         Container.api.register { MockAPI() }
    ///         #expect(Checkout().submit() == .ok)
    ///     }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - name: What messages call the world, such as the test's name; they always say where it was made.
    ///   - runContext: What contexts and time-to-live read in the world; the enclosing world's when `nil`.
    ///   - fileID: Where the world is made, for messages. Leave the default.
    ///   - line: The line where the world is made, for messages. Leave the default.
    ///   - body: The code that runs in the world.
    /// - Returns: What `body` returns.
    public static func isolated<R>(
        named name: String? = nil, runContext: SharedContainer.RunContext? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, _ body: () throws -> R
    ) rethrows -> R {
        let world = World.makeIsolated(
            named: name, runContext: runContext, at: "\(fileID):\(line)", watchingForEscapes: true)
        defer { world.stopWatching() }
        return try World.$isolated.withValue(world, operation: body)
    }

    /// Runs the async `body` in a private world of registrations, push/pop stack and scope caches.
    ///
    /// The same as the synchronous ``isolated(named:runContext:fileID:line:_:)``, for async code: the world
    /// follows `body` across suspension points and into the child tasks and `Task { }` it starts.
    ///
    /// - Returns: What `body` returns.
    public static func isolated<R>(
        named name: String? = nil, runContext: SharedContainer.RunContext? = nil, fileID: StaticString = #fileID,
        line: UInt = #line, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        let world = World.makeIsolated(
            named: name, runContext: runContext, at: "\(fileID):\(line)", watchingForEscapes: true)
        defer { world.stopWatching() }
        return try await World.$isolated.withValue(world, operation: body)
    }
}

extension SharedContainer.Registrations {
    /// ``isolated(named:runContext:fileID:line:_:)`` for a test framework's integration (ForgeTesting's trait and
    /// `IsolatedTestCase`): the world is a test's, and the worlds nested in it share its mailbox. A problem met in
    /// them that does not stop the process (a captive dependency while
    /// ``SharedContainer/Diagnostics/captiveDependencies`` is `.warn`, an escape through a lazy property read in it, a
    /// call of an unimplemented endpoint, a live closure) goes to `problems`, once per problem, instead of a printed
    /// warning: at once when met on the body's own task tree (its task, and the tasks it starts but detached ones);
    /// when the body returns when met elsewhere (a queue the world was carried to); a warning once it has returned.
    /// `problems` is called on the body's task tree only, where the framework can tell the test.
    ///
    /// An escape that work off every test's task tree made, bypassing this world among others, fails no test: if this
    /// test's body is the first of theirs to return, it goes to `forTheRun`, on the body's task, to be recorded as a
    /// warning that fails nothing; without `forTheRun`, it is a warning on standard error. While a `strict` world's
    /// body runs, a live closure that such work runs in the process's world, of a factory no world overrides, is
    /// such an escape, of every strict test running.
    ///
    /// A `strict` world (`true`) also hands `problems` every factory whose live closure runs in it, once per factory:
    /// its own closure, a context's other than `onTest`, or the app's baseline registration, unless it is marked
    /// `liveInTests` (``ResolutionError/Kind/liveInStrictTest``). `false` says the world is lenient; `nil`, that it is
    /// as strict as the world it is nested in (lenient at the top).
    ///
    /// `fileID` and `line` are a `String` and an `Int`, as in Swift Testing's `SourceLocation`, which the trait
    /// passes on.
    @_spi(ForgeTesting)
    public static func isolated<R>(
        named name: String, fileID: String, line: Int, strict: Bool? = nil,
        reportingProblems problems: @escaping @Sendable (ResolutionError) -> Void,
        reportingForTheRun forTheRun: (@Sendable (ResolutionError) -> Void)? = nil, _ body: () throws -> R
    ) rethrows -> R {
        let test = TestWorld(name, at: "\(fileID):\(line)", strict: strict, problems: problems, forTheRun: forTheRun)
        defer { test.bodyReturned() }
        return try ProblemMailbox.$ofCurrentTask.withValue(test.mailbox) {
            try World.$isolated.withValue(test.world, operation: body)
        }
    }

    /// The async form of ``isolated(named:fileID:line:strict:reportingProblems:reportingForTheRun:_:)``.
    @_spi(ForgeTesting)
    public static func isolated<R>(
        named name: String, fileID: String, line: Int, strict: Bool? = nil,
        reportingProblems problems: @escaping @Sendable (ResolutionError) -> Void,
        reportingForTheRun forTheRun: (@Sendable (ResolutionError) -> Void)? = nil,
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> R {
        let test = TestWorld(name, at: "\(fileID):\(line)", strict: strict, problems: problems, forTheRun: forTheRun)
        defer { test.bodyReturned() }
        return try await ProblemMailbox.$ofCurrentTask.withValue(test.mailbox) {
            try await World.$isolated.withValue(test.world, operation: body)
        }
    }
}

/// A test's world and its mailbox, for both forms of the test frameworks' `isolated`: the world watches for escapes
/// while the test's body runs; when it returns, the world stops watching and the mailbox records what waits.
private struct TestWorld {
    let world: World
    let mailbox: ProblemMailbox

    init(
        _ name: String, at site: String, strict: Bool?, problems: @escaping @Sendable (ResolutionError) -> Void,
        forTheRun: (@Sendable (ResolutionError) -> Void)?
    ) {
        mailbox = ProblemMailbox(record: problems, recordForTheRun: forTheRun)
        world = World.makeIsolated(
            named: name, runContext: nil, at: site, mailbox: mailbox, watchingForEscapes: true, strict: strict)
    }

    /// The test's body returned: escapes no longer bypass its world, and problems met from now on are late.
    func bodyReturned() {
        world.stopWatching()
        mailbox.deliverPending(closing: true)
    }
}

extension World {
    /// A world for a new isolated call, nested in the current one if there is one, whose problems go to `mailbox`
    /// (a test's), or the enclosing world's. With `fromRegistrationsInForce` (for `verify`), it starts from the
    /// registrations in force in the current world, even the process's, rather than from its baseline. With
    /// `watchingForEscapes` (for `Registrations.isolated`), resolutions in the process's world that bypass its
    /// overrides are escapes (``EscapedResolutions``) until ``stopWatching()``. It is `strict` (a factory's live
    /// closure run in it is a problem), or as strict as the current world when `strict` is `nil`; a strict world with a
    /// `mailbox` of its own is a strict test's, which escaped work's live closures are reported to
    /// (``EscapedLiveClosures``).
    static func makeIsolated(
        named name: String?, runContext: SharedContainer.RunContext?, at site: String,
        mailbox: ProblemMailbox? = nil, fromRegistrationsInForce: Bool = false,
        watchingForEscapes: Bool = false, strict: Bool? = nil, recordsStaleDependents: Bool = true
    ) -> World {
        let enclosing = current  // which runs AutoRegistering first, if it has not run
        let description =
            name.map { "the isolated world \"\($0)\" (made at \(site))" }
            ?? "the isolated world made at \(site)"
        let initial =
            fromRegistrationsInForce ? enclosing.registrationsInForce() : enclosing.registrationsForNestedWorld()
        return World(
            isGlobal: false, initial: initial,
            runContext: runContext ?? enclosing.runContext, description: description,
            mailbox: mailbox ?? enclosing.mailbox, watchingForEscapes: watchingForEscapes,
            strict: strict ?? enclosing.isStrict, strictTest: mailbox != nil,
            recordsStaleDependents: recordsStaleDependents)
    }
}
