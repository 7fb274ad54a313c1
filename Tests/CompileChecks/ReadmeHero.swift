// swift-version: 6
// expect: clean
// The README's opening sample: the types it uses first, then the sample verbatim.
protocol APIClient: Sendable {}
final class LiveAPIClient: APIClient {}

// The README's sample, from here to the end.
import Forge

extension Container {
    static let api = Factory<APIClient>(scope: .singleton) { LiveAPIClient() }
}
let client = Container.api()
