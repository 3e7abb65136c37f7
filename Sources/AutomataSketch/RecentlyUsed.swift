/// A dictionary that holds at most `capacity` entries: adding one past it drops the least
/// recently used half. For results that are a function of their key alone (a classification
/// of strokes), so dropping one only costs working it out again.
struct RecentlyUsed<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    let capacity: Int
    private var entries: [Key: (value: Value, used: Int)] = [:]
    /// Counts lookups and insertions: an entry's `used` is the count at its last one.
    private var clock = 0

    init(capacity: Int) {
        precondition(capacity > 0, "a capacity of at least one entry")
        self.capacity = capacity
    }

    var count: Int { entries.count }

    /// The value for `key`, marked as just used; nil when there is none.
    mutating func value(for key: Key) -> Value? {
        guard let index = entries.index(forKey: key) else { return nil }
        clock += 1
        entries.values[index].used = clock
        return entries.values[index].value
    }

    /// Adds or replaces the value for `key`, dropping the least recently used half of the
    /// entries when there are more than `capacity`.
    mutating func insert(_ value: Value, for key: Key) {
        clock += 1
        entries[key] = (value, clock)
        guard entries.count > capacity else { return }
        let kept = entries.values.map(\.used).sorted()[entries.count / 2]
        entries = entries.filter { $0.value.used >= kept }
    }
}
