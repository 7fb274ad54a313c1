// Forge: stand-ins for the endpoints of a client that a test did not stub.

/// A stand-in for an endpoint that a test did not stub, which returns `placeholder` when called: a call is an issue
/// of the running test, once per stand-in and test, or a warning outside tests.
///
/// A client built as a struct of closures gets a test value whose every endpoint fails the test that calls it
/// without stubbing it, while the test runs on and the suite finishes:
///
/// ```swift
/// extension APIClient {
///     static let testValue = APIClient(
///         fetch: unimplemented("APIClient.fetch", placeholder: []),     // @Sendable () -> [Movie]
///         save: unimplemented("APIClient.save"))                        // @Sendable (Movie) throws -> Void
/// }
/// ```
///
/// The closure's type comes from where it is used: any number of arguments, async or not (a synchronous closure
/// converts to an async one). Under ForgeTesting's trait and `IsolatedTestCase`, a call is an issue of the test whose
/// world it runs in, from the test itself, a child task, or work that carries the test's world
/// (``SharedContainer/Registrations/capture(fileID:line:)``): once per stand-in and test however often it is called
/// (two stand-ins with one `endpoint`, made at different places, are two issues). It is recorded at once on the
/// test's own task tree, when the test's body returns when made elsewhere (a queue the world was carried to), and is
/// a warning that belongs to no test when made after the body returned. In a
/// ``SharedContainer/Diagnostics/verify(fileID:line:_:)-51hkk`` body, a call is in verify's report. Outside a test's
/// world, a call writes a warning to standard error, once per stand-in, in every build. (A typed `throws(E)` endpoint
/// needs a placeholder.)
///
/// - Parameters:
///   - endpoint: What the messages call the endpoint, such as `"APIClient.fetch"`.
///   - placeholder: What a call returns.
///   - fileID: Where the stand-in is made, for messages. Leave the default.
///   - line: The line where the stand-in is made. Leave the default.
public func unimplemented<each Argument, Result>(
    _ endpoint: String, placeholder: @autoclosure @escaping @Sendable () -> Result, fileID: StaticString = #fileID,
    line: UInt = #line
) -> @Sendable (repeat each Argument) -> Result {
    let site = "\(fileID):\(line)"
    return { (_: repeat each Argument) in
        Unimplemented.called(endpoint, madeAt: site)
        return placeholder()
    }
}

/// A stand-in for a throwing endpoint, which throws ``UnimplementedEndpoint`` when called: a call is an issue of the
/// running test, once per stand-in and test, or a warning outside tests, as
/// ``unimplemented(_:placeholder:fileID:line:)`` says.
public func unimplemented<each Argument, Result>(
    _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) throws -> Result {
    let site = "\(fileID):\(line)"
    return { (_: repeat each Argument) throws in
        Unimplemented.called(endpoint, madeAt: site)
        throw UnimplementedEndpoint(endpoint: endpoint, site: site)
    }
}

/// A stand-in for an endpoint that returns nothing and cannot throw: a call is an issue of the running test, once per
/// stand-in and test, or a warning outside tests, as ``unimplemented(_:placeholder:fileID:line:)`` says.
// Disfavored: where the endpoint can throw, the throwing stand-in fits better.
@_disfavoredOverload
public func unimplemented<each Argument>(
    _ endpoint: String, fileID: StaticString = #fileID, line: UInt = #line
) -> @Sendable (repeat each Argument) -> Void {
    let site = "\(fileID):\(line)"
    return { (_: repeat each Argument) in Unimplemented.called(endpoint, madeAt: site) }
}

/// What a throwing stand-in made by `unimplemented` throws.
///
/// An app that declares a type of its own with this name keeps using its own in its module. A module that imports
/// both, such as the app's test target, names the one it means: `Forge.UnimplementedEndpoint`, or
/// `import struct App.UnimplementedEndpoint` for the app's (the README's "Name clashes" shows both).
public struct UnimplementedEndpoint: Error, Sendable, CustomStringConvertible {
    /// What the stand-in calls the endpoint, such as `"APIClient.save"`.
    public let endpoint: String
    /// Where the stand-in was made: file and line.
    public let site: String

    /// What happened, and where the stand-in was made.
    public var description: String { "\(endpoint) is unimplemented (its stand-in was made at \(site))" }
}

/// A call of a stand-in: a problem of the world it runs in (``ProblemRoute``).
enum Unimplemented {
    /// Reports a call of the stand-in for `endpoint`, made at `site`.
    static func called(_ endpoint: String, madeAt site: String) {
        let world = World.current
        ProblemRoute.report(.unimplemented(endpoint, madeAt: site, in: world), metIn: world)
    }
}

extension ResolutionError {
    /// The stand-in for `endpoint`, made at `site` by `unimplemented`, was called in `world`.
    static func unimplemented(_ endpoint: String, madeAt site: String, in world: World) -> ResolutionError {
        ResolutionError(
            kind: .unimplemented, factory: endpoint, chain: [], world: world.description,
            description: """
                Forge: unimplemented: \(endpoint) was called, and its stand-in (made at \(site)) has no \
                implementation. Override what the code under test calls: register a value whose \(endpoint) does \
                what the test needs, in the test or in the trait's registrations.
                """ + happenedIn(world), distinction: site)
    }
}
