import Testing

/// All event-loop tests run one at a time: a clock set (WakeUpTests) wakes every loop in the process,
/// which would disturb tests that count dispatched events.
@Suite(.serialized) enum EventLoopSuite {}
