/// Names instances `api#1`, `api#2`, … with a counter per kind, so that the demo can show which instance it got
/// without printing memory addresses. A singleton (see `Container.instanceIDs`), so numbering restarts in a new
/// Forge world.
final class InstanceIDs: Sendable {
    private let counts = Locked<[String: Int]>([:])

    func next(_ kind: String) -> String {
        let number = counts.withLock { counts in
            counts[kind, default: 0] += 1
            return counts[kind, default: 0]
        }
        return "\(kind)#\(number)"
    }
}
