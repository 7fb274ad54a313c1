/// App-wide settings, read once.
struct AppConfig: Sendable {
    let id: String
    let apiBaseURL: String

    init(id: String, apiBaseURL: String = "https://api.example.com") {
        self.id = id
        self.apiBaseURL = apiBaseURL
    }
}

struct User: Sendable, Equatable {
    let name: String
}

/// Talks to the backend on behalf of one user.
protocol APIClient: AnyObject, Sendable {
    var id: String { get }
    var user: User { get }
    func post(_ path: String, _ body: String)
    /// Ends the connection; called when the session scope lets go of the client, at logout.
    func close()
}

/// The real client; here it only logs the requests it would send.
final class LiveAPIClient: APIClient {
    let id: String
    let user: User
    private let baseURL: String
    private let logger: any Logger

    init(id: String, user: User, baseURL: String, logger: any Logger) {
        self.id = id
        self.user = user
        self.baseURL = baseURL
        self.logger = logger
    }

    func post(_ path: String, _ body: String) {
        logger.log("\(id) POST \(baseURL)/users/\(user.name)\(path) \(body)")
    }

    func close() {
        logger.log("\(id) closed")
    }
}

/// The client of an app launched with `--offline`: it queues what it would send.
final class OfflineAPIClient: APIClient {
    let id: String
    let user: User
    private let logger: any Logger

    init(id: String, user: User, logger: any Logger) {
        self.id = id
        self.user = user
        self.logger = logger
    }

    func post(_ path: String, _ body: String) {
        logger.log("\(id) offline: queued POST /users/\(user.name)\(path) \(body)")
    }

    func close() {
        logger.log("\(id) closed")
    }
}

/// The logged-in user's shopping cart, saved through their API client.
final class Cart: Sendable {
    let id: String
    let api: any APIClient
    private let storage = Locked<[String]>([])

    init(id: String, api: any APIClient) {
        self.id = id
        self.api = api
    }

    var owner: User { api.user }
    var items: [String] { storage.withLock { $0 } }

    /// Adds `item` and returns how many items the cart holds.
    func add(_ item: String) -> Int {
        api.post("/cart", item)
        return storage.withLock { items in
            items.append(item)
            return items.count
        }
    }
}
