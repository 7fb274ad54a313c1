// The operations a model check runs, what each one lets a test observe, and how a run's operations are drawn at
// random from a seed.

/// One step of a run: what it does to Forge and to the model alike.
enum Op: Equatable, Sendable, CustomStringConvertible {
    /// Resolves a factory (a parameter factory with `parameter`), or, if the model says nothing would make it, tries
    /// to.
    case resolve(Int, parameter: Int = 0)
    case tryResolve(Int)
    /// Resolves a factory and keeps the instance until ``dropHeld``.
    case hold(Int)
    case dropHeld
    /// Registers a closure that makes instances with maker `r<number>`.
    case register(Int, number: Int)
    case reset(Int, ResetOption)
    case push, pop
    case resetRegistrations
    case registrationsAreEmpty
    case resetScope(ModelScope)
    case resetAllScopes(includingSingletons: Bool)
    /// `Scope.reset()`.
    case resetScopesButSingletons
    case scopeIsEmpty(ModelScope)
    /// Enters a nested isolated world, with a context of its own or the enclosing one's.
    case enterWorld(ModelRunContext?)
    case leaveWorld
    /// Contributes an element made with maker `k<number>`, kept as `scope` says.
    case contribute(number: Int, scope: ModelScope)
    case resolveList
    case resetList
    case advanceClock(Double)

    enum ResetOption: String, Sendable, CaseIterable {
        case all, registration, scope, none
    }

    var description: String {
        switch self {
        case .resolve(let factory, let parameter):
            parameter == 0 ? ".resolve(\(factory))" : ".resolve(\(factory), parameter: \(parameter))"
        case .tryResolve(let factory): ".tryResolve(\(factory))"
        case .hold(let factory): ".hold(\(factory))"
        case .dropHeld: ".dropHeld"
        case .register(let factory, let number): ".register(\(factory), number: \(number))"
        case .reset(let factory, let option): ".reset(\(factory), .\(option))"
        case .push: ".push"
        case .pop: ".pop"
        case .resetRegistrations: ".resetRegistrations"
        case .registrationsAreEmpty: ".registrationsAreEmpty"
        case .resetScope(let scope): ".resetScope(.\(scope))"
        case .resetAllScopes(let includingSingletons): ".resetAllScopes(includingSingletons: \(includingSingletons))"
        case .resetScopesButSingletons: ".resetScopesButSingletons"
        case .scopeIsEmpty(let scope): ".scopeIsEmpty(.\(scope))"
        case .enterWorld(let context): ".enterWorld(\(context.map { "\($0)" } ?? "nil"))"
        case .leaveWorld: ".leaveWorld"
        case .contribute(let number, let scope): ".contribute(number: \(number), scope: .\(scope))"
        case .resolveList: ".resolveList"
        case .resetList: ".resetList"
        case .advanceClock(let seconds): ".advanceClock(\(seconds))"
        }
    }
}

/// What an isolated world's run context says, as the model reads it.
struct ModelRunContext: Equatable, Sendable, CustomStringConvertible {
    var hasArgument: Bool
    var isPreview = false
    var isTest: Bool
    var isDebugBuild: Bool

    var description: String {
        ".init(hasArgument: \(hasArgument), isPreview: \(isPreview), isTest: \(isTest), isDebugBuild: \(isDebugBuild))"
    }

    /// A random one.
    static func random(using generator: inout SplitMix64) -> ModelRunContext {
        ModelRunContext(
            hasArgument: Bool.random(using: &generator), isPreview: Int.random(in: 0..<4, using: &generator) == 0,
            isTest: Bool.random(using: &generator), isDebugBuild: Bool.random(using: &generator))
    }

    /// The first of `contexts` whose condition holds, in their order of precedence.
    func first(of contexts: [ModelContext]) -> ModelContext? {
        contexts.first { context in
            switch context {
            case .argument: hasArgument
            case .preview: isPreview
            case .test: isTest
            case .debug: isDebugBuild
            }
        }
    }
}

/// What one operation let a test see: compared between Forge and the model after every step.
struct Observed: Equatable, CustomStringConvertible {
    struct Instance: Equatable, CustomStringConvertible {
        let serial: Int
        let factory: Int
        let maker: String
        let parameter: Int?
        let dependencies: [Int]

        var description: String {
            let parameter = parameter.map { " p\($0)" } ?? ""
            let dependencies = dependencies.isEmpty ? "" : " deps \(dependencies)"
            return "#\(serial) of \(factory) by \(maker)\(parameter)\(dependencies)"
        }
    }

    enum Value: Equatable {
        case nothing
        case skipped
        case instance(Instance)
        case instances([Instance])
        case promiseNotFulfilled
        case otherError(String)
        case bool(Bool)
    }

    var value: Value = .nothing
    /// The instances `afterMake` was called with, in order.
    var afterMade: [Int] = []
    /// The instances `onDispose` was called with, sorted: a step that lets go of several names no order.
    var disposed: [Int] = []
    /// After the step, in the current world: each scope's `isEmpty`, in ``ModelScope`` order, then
    /// `Registrations.isEmpty`.
    var emptiness: [Bool] = []

    var description: String { "\(value), afterMake \(afterMade), disposed \(disposed), empty \(emptiness)" }
}

/// A small, fast generator whose whole state is one word: a seed gives the same operations on every machine.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

extension Op {
    /// A random run of `count` operations over the model's factories, from `generator`.
    static func randomRun(count: Int, using generator: inout SplitMix64) -> [Op] {
        var ops: [Op] = []
        var depth = 0
        var number = 0
        let factories = ModelFactory.all.count
        for _ in 0..<count {
            number += 1
            let roll = Int.random(in: 0..<100, using: &generator)
            let factory = Int.random(in: 0..<factories, using: &generator)
            let op: Op
            switch roll {
            case 0..<30: op = .resolve(factory, parameter: Int.random(in: 0..<3, using: &generator))
            case 30..<35: op = .tryResolve(factory)
            case 35..<39: op = .hold(factory)
            case 39..<41: op = .dropHeld
            case 41..<50: op = .register(factory, number: number)
            case 50..<56: op = .reset(factory, ResetOption.allCases.randomElement(using: &generator)!)
            case 56..<60: op = .push
            case 60..<64: op = .pop
            case 64..<65: op = .resetRegistrations
            case 65..<66: op = .registrationsAreEmpty
            case 66..<69: op = .resetScope(ModelScope.allCases.randomElement(using: &generator)!)
            case 69..<70:
                op =
                    Bool.random(using: &generator)
                    ? .resetScopesButSingletons : .resetAllScopes(includingSingletons: Bool.random(using: &generator))
            case 70..<73: op = .scopeIsEmpty(ModelScope.allCases.randomElement(using: &generator)!)
            case 73..<77:
                op = .enterWorld(Bool.random(using: &generator) ? ModelRunContext.random(using: &generator) : nil)
                depth += 1
            case 77..<81 where depth > 0:
                op = .leaveWorld
                depth -= 1
            case 77..<81:
                op = .resolve(factory)
            case 81..<85:
                op = .contribute(number: number, scope: ModelScope.allCases.randomElement(using: &generator)!)
            case 85..<92: op = .resolveList
            case 92..<94: op = .resetList
            default: op = .advanceClock(Double(Int.random(in: 1...8, using: &generator)))
            }
            ops.append(op)
        }
        return ops
    }
}
