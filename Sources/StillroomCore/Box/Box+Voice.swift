/// The voice inside the box (`SpeechQueue`), with the rules around it that were the daemon's:
///
/// - labels are said only with spoken labels on, unless someone asked for them with labels off (a
///   gesture, the key describer, the guide, a setting that could not be saved): the setting is read when
///   the request comes, after the effects before it (a setting just turned off silences what follows);
/// - a transcript is read from the model's transcript, the recording paused first (Box+Listening.swift),
///   and any control but a wake stops it (Box.swift); the guide is read the same way, a sentence at a
///   time, over the recording;
/// - the interface's words come as `.then(.speech(…))`, in order with its other effects, so the daemon can
///   leave out what a refused setting meant to say.
extension Box {
    mutating func speak(_ request: SpeechRequest, now: MonotonicInstant) -> [BoxEffect] {
        switch request {
        case .label(let text, let always):
            guard always || model.settings.spokenLabels else { return [] }
            return voiceEffects(voice.label(text, now: now))
        case .afterCurrent(let text):
            guard model.settings.spokenLabels else { return [] }
            return voiceEffects(voice.hold(text, now: now))
        case .readTranscript(let cue):
            guard let transcript = model.transcript, cue < transcript.cues.count else { return [] }
            return voiceEffects(voice.read(transcript.cues[max(0, cue)...].map(\.plainText), now: now))
        case .read(let sentences):
            return voiceEffects(voice.read(sentences, now: now))
        }
    }

    /// The speech queue's effects, its timers among the box's.
    mutating func voiceEffects(_ effects: [SpeechQueue.Effect]) -> [BoxEffect] {
        effects.flatMap { effect -> [BoxEffect] in
            switch effect {
            case .say(let text): return [.say(text)]
            case .arm(let timer, let at): return arm(.speech(timer), at: at)
            case .cancel(let timer): return cancel(.speech(timer))
            }
        }
    }
}
