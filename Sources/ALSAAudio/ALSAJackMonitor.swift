internal import CALSA
import EventLoop
import Glibc

/// Watches a card's jack control ("Headphone Jack", "Headphones - Output Jack" …): the ALSA way to learn
/// that headphones went in or out, readable by any process and delivered as control events in the loop.
///
/// Reports the initial state once started, then every change. The control going away (the card was
/// removed) is reported as `removed`.
public final class ALSAJackMonitor {
    public enum Event: Equatable, Sendable {
        case connected(Bool)
        case removed
    }

    public let card: String
    public let controlName: String
    private let loop: EventLoop
    private var control: OpaquePointer?
    private var watches: [IOWatch] = []
    private var descriptors: [pollfd] = []
    private var numid: UInt32 = 0
    private var handler: (Event) -> Void = { _ in }

    /// `card` as ALSA names it ("hw:CARD=Headphones"); `controlName` the jack control's exact name.
    public init(card: String, controlName: String = "Headphone Jack", loop: EventLoop) {
        self.card = card
        self.controlName = controlName
        self.loop = loop
    }

    deinit { stop() }

    /// Opens the card, finds the control, reports its current state, and watches it.
    public func start(_ handler: @escaping (Event) -> Void) throws(JackMonitorError) {
        stop()
        stillroom_alsa_silence_library_errors()
        self.handler = handler
        var opened: OpaquePointer?
        let code = snd_ctl_open(&opened, card, Int32(SND_CTL_NONBLOCK))
        guard code == 0, let opened else {
            throw JackMonitorError("\(card): \(String(cString: snd_strerror(code))); check the card name with `aplay -l`")
        }
        control = opened
        guard let found = findControl(opened) else {
            stop()
            throw JackMonitorError("\(card) has no control named \"\(controlName)\"; list them with `amixer -c CARD controls | grep Jack`")
        }
        numid = found
        snd_ctl_subscribe_events(opened, 1)
        let count = Int(snd_ctl_poll_descriptors_count(opened))
        descriptors = [pollfd](repeating: pollfd(), count: max(0, count))
        _ = snd_ctl_poll_descriptors(opened, &descriptors, UInt32(count))
        for descriptor in descriptors {
            guard let watch = try? loop.watch(descriptor.fd, for: .readable, handler: { [unowned self] _ in readEvents() }) else {
                stop()
                throw JackMonitorError("\(card): cannot watch its control events")
            }
            watches.append(watch)
        }
        if let value = readValue() { handler(.connected(value)) }
    }

    public func stop() {
        for watch in watches { watch.cancel() }
        watches = []
        if let control { snd_ctl_close(control) }
        control = nil
    }

    private func findControl(_ control: OpaquePointer) -> UInt32? {
        var list: OpaquePointer?
        snd_ctl_elem_list_malloc(&list)
        defer { snd_ctl_elem_list_free(list) }
        guard snd_ctl_elem_list(control, list) == 0 else { return nil }
        let count = snd_ctl_elem_list_get_count(list)
        guard count > 0, snd_ctl_elem_list_alloc_space(list, count) == 0 else { return nil }
        defer { snd_ctl_elem_list_free_space(list) }
        guard snd_ctl_elem_list(control, list) == 0 else { return nil }
        for index in 0..<snd_ctl_elem_list_get_used(list) {
            if let name = snd_ctl_elem_list_get_name(list, index), String(cString: name) == controlName {
                return snd_ctl_elem_list_get_numid(list, index)
            }
        }
        return nil
    }

    private func readValue() -> Bool? {
        guard let control else { return nil }
        var value: OpaquePointer?
        snd_ctl_elem_value_malloc(&value)
        defer { snd_ctl_elem_value_free(value) }
        snd_ctl_elem_value_set_numid(value, numid)
        guard snd_ctl_elem_read(control, value) == 0 else { return nil }
        return snd_ctl_elem_value_get_boolean(value, 0) != 0
    }

    private func readEvents() {
        guard let control else { return }
        var event: OpaquePointer?
        snd_ctl_event_malloc(&event)
        defer { snd_ctl_event_free(event) }
        while true {
            let code = snd_ctl_read(control, event)
            if code == -EAGAIN || code == 0 { return }
            if code < 0 {
                stop()
                handler(.removed)
                return
            }
            guard snd_ctl_event_get_type(event) == SND_CTL_EVENT_ELEM,
                  snd_ctl_event_elem_get_numid(event) == numid else { continue }
            let mask = snd_ctl_event_elem_get_mask(event)
            // REMOVE is all bits set: test it before VALUE.
            if mask == SND_CTL_EVENT_MASK_REMOVE {
                stop()
                handler(.removed)
                return
            }
            if mask & UInt32(SND_CTL_EVENT_MASK_VALUE) != 0, let connected = readValue() {
                handler(.connected(connected))
            }
        }
    }
}

/// The jack control could not be watched: what and what to do.
public struct JackMonitorError: Error, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
