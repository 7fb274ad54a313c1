// The factories, `unimplemented` stand-ins and captive pairs of one delivery run, new for each run, and how what Forge
// reports about them (a test's problem, a run report, a warning's text) reads as the model's problems.
@_spi(ForgeTesting) @testable import Forge

extension SharedContainer.Scope {
    /// The shorter-lived scope of the delivery check's captive pairs.
    fileprivate static let deliverySession = Cached(name: "deliverySession")
}

final class DeliveryService: Sendable {}

final class DeliveryHolder: Sendable {
    let service: DeliveryService
    init(_ service: DeliveryService) { self.service = service }
}

/// What one run resolves and calls. Forge says "once for the run" of a problem for the whole process, by the
/// factory's declaration or the endpoint's name: each run gets declarations (lines) and names of its own, so that its
/// warnings and run reports are its own, whatever ran before it in the process.
struct DeliveryFixtures: Sendable {
    /// Which run this is, in the process: what its names are made from.
    let run: Int
    let factories: [Factory<DeliveryService>]
    let endpoints: [@Sendable () -> Int]
    /// Each captive pair's singleton, whose closure resolves the pair's cached factory.
    let holders: [Factory<DeliveryHolder>]
    private let endpointNames: [String]
    private let dependencies: [Factory<DeliveryService>]

    private static let runs = Locked(0)

    init() {
        let run = Self.runs.withLock { runs in
            runs += 1
            return runs
        }
        self.run = run
        let first = UInt(run) * 100
        factories = (0..<DeliveryUniverse.factories).map { factory in
            let made = Factory(fileID: #fileID, line: first + UInt(factory)) { DeliveryService() }
            return DeliveryUniverse.isLiveInTests(factory) ? made.liveInTests : made
        }
        endpointNames = (0..<DeliveryUniverse.endpoints).map { "DeliveryClient\(run).endpoint\($0)" }
        endpoints = endpointNames.map { name in unimplemented(name, placeholder: 0) }
        // A strict test meets the pair, not a live closure: both are marked liveInTests (the holder resolves only the
        // marked dependency, which composes nothing: unmarked, it would be a leaf).
        let dependencies = (0..<DeliveryUniverse.pairs).map { pair in
            Factory(scope: .deliverySession, fileID: #fileID, line: first + 50 + UInt(pair)) { DeliveryService() }
                .liveInTests
        }
        self.dependencies = dependencies
        holders = dependencies.enumerated().map { pair, dependency in
            Factory(scope: .singleton, fileID: #fileID, line: first + 60 + UInt(pair)) {
                DeliveryHolder(dependency())
            }
            .liveInTests
        }
    }

    /// The name of test `test`'s world, which messages quote.
    func testName(_ test: Int) -> String { "test \(test) of delivery run \(run)" }

    /// `problem`, which Forge reported, as the model names it.
    func modelProblem(_ problem: ResolutionError) -> DeliveryProblem {
        let found: (DeliveryProblem.Kind, Int?) =
            switch problem.kind {
            case .liveInStrictTest: (.live, factories.firstIndex { $0.box.displayName == problem.factory })
            case .escapedResolution:
                (
                    problem.distinction == ResolutionError.escapedLiveDistinction ? .escapeLive : .escape,
                    factories.firstIndex { $0.box.displayName == problem.factory }
                )
            case .captiveDependency: (.captive, dependencies.firstIndex { $0.box.displayName == problem.factory })
            case .unimplemented: (.unimplemented, endpointNames.firstIndex(of: problem.factory))
            case .staleDependents: (.late, factories.firstIndex { $0.box.displayName == problem.factory })
            default: (.unrecognized, nil)
            }
        guard let subject = found.1 else { return DeliveryProblem(kind: .unrecognized, subject: -1) }
        return DeliveryProblem(kind: found.0, subject: subject)
    }

    /// The tests a run report names as candidates: those whose world's name it quotes.
    func candidates(in problem: ResolutionError) -> [Int] {
        (0..<DeliveryUniverse.tests).filter { problem.description.contains("\"\(testName($0))\"") }
    }

    /// The warnings in `text`, what Forge wrote to standard error, as the model names them; anything else written
    /// there is an unrecognized one.
    func warnings(in text: String, step: Int?) -> [DeliveryObservation.Warning] {
        let prefix = "Forge warning: "
        var chunks = text.components(separatedBy: prefix)
        let before = chunks.removeFirst()
        var warnings = chunks.map { chunk in
            DeliveryObservation.Warning(
                problem: problem(inWarning: chunk),
                late: chunk.contains("It was met after the test's body returned: it belongs to no test."), step: step)
        }
        if !before.isEmpty {
            warnings.insert(.init(problem: .init(kind: .unrecognized, subject: -1), late: false, step: step), at: 0)
        }
        return warnings
    }

    /// The problem a warning's text (after "Forge warning: ") is about: its kind, from how the message starts, and
    /// the first of the run's factories, endpoints or pairs it names.
    private func problem(inWarning text: String) -> DeliveryProblem {
        let kinds: [(String, DeliveryProblem.Kind)] = [
            ("live closure in a strict test.", .live), ("unimplemented:", .unimplemented),
            ("captive dependency.", .captive), ("escaped resolution.", .escape), ("stale dependents.", .late),
        ]
        guard var kind = kinds.first(where: { text.hasPrefix($0.0) })?.1 else {
            return DeliveryProblem(kind: .unrecognized, subject: -1)
        }
        if kind == .escape && text.contains("strict test") { kind = .escapeLive }
        let names: [(String, Int)] =
            switch kind {
            case .live, .escape, .escapeLive, .late: factories.enumerated().map { ($1.box.displayName, $0) }
            case .unimplemented: endpointNames.enumerated().map { ("\($1) was called", $0) }
            case .captive: holders.enumerated().map { ($1.box.displayName, $0) }
            case .unrecognized: []
            }
        let first = names.compactMap { name, subject in
            text.range(of: name).map { (at: $0.lowerBound, subject: subject) }
        }.min { $0.at < $1.at }
        return DeliveryProblem(kind: first == nil ? .unrecognized : kind, subject: first?.subject ?? -1)
    }
}
