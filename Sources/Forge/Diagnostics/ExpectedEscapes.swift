// Forge: escapes a test expects, absorbed instead of reported.

extension SharedContainer.Registrations {
    /// Runs `body` while the current test expects escapes: an escape that bypasses one of its worlds meanwhile, from
    /// wherever, is absorbed (``ProblemRoute``), whatever ``SharedContainer/Diagnostics/escapedResolutions`` says.
    /// Returns what `body` returns, with the escapes absorbed; `nil` for them when the calling code runs in no test's
    /// world. For ForgeTesting's `expectingEscapes`, which makes a test that absorbed none fail.
    @_spi(ForgeTesting)
    public static func absorbingEscapes<R>(_ body: () throws -> R) rethrows -> (R, [ResolutionError]?) {
        guard let mailbox = World.current.mailbox else { return (try body(), nil) }
        let token = mailbox.beginExpecting()
        do {
            let result = try body()
            return (result, mailbox.endExpecting(token))
        } catch {
            _ = mailbox.endExpecting(token)
            throw error
        }
    }

    /// The async form of ``absorbingEscapes(_:)``.
    @_spi(ForgeTesting)
    public static func absorbingEscapes<R>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> R
    ) async rethrows -> (R, [ResolutionError]?) {
        guard let mailbox = World.current.mailbox else { return (try await body(), nil) }
        let token = mailbox.beginExpecting()
        do {
            let result = try await body()
            return (result, mailbox.endExpecting(token))
        } catch {
            _ = mailbox.endExpecting(token)
            throw error
        }
    }
}
