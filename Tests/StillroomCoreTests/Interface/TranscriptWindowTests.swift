import StillroomCore
import Testing

/// The transcript screen measures and lays out only the cues near the reader: a downloaded transcript of
/// thousands of cues must not stall the loop the first time it is shown (pango shapes each text it measures).
@Suite struct TranscriptWindowTests {
    /// Counts the texts measured, with the pure estimate doing the measuring.
    final class CountingMeasurer {
        var texts = 0
        var measurer: TextMeasurer {
            TextMeasurer(lineCount: { [unowned self] run in texts += 1; return TextMeasurer.estimate.lineCount(run) },
                         lineWidth: { [unowned self] run in texts += 1; return TextMeasurer.estimate.lineWidth(run) })
        }
    }

    @Test func aTranscriptOfThreeThousandCuesMeasuresOnlyTheCuesNearTheReader() {
        let cues = (0..<3000).map { index in
            TranscriptCue(start: .milliseconds(Int64(index) * 90), end: .milliseconds(Int64(index) * 90 + 90),
                          text: "Line \(index): breathe in, and breathe out.")
        }
        var model = InterfaceSamples.playing(InterfaceSamples.model(textSize: .largest), position: 135.01)
        model.transcript = Transcript(cues: cues)
        let ui = Interface(showing: [Page(.player), Page(.transcript)])
        let counting = CountingMeasurer()
        let scene = InterfaceScene(measurer: counting.measurer).scene(ui, model: model, size: PixelSize(width: 800, height: 480),
                                                                     now: InterfaceSamples.now)
        #expect(counting.texts < 100, "measured \(counting.texts) texts for one frame")
        let shown = scene.nodes.compactMap { node -> String? in
            guard case .text(let run) = node.content, node.id.rawValue.hasPrefix("transcript.cue.") else { return nil }
            return run.text
        }
        #expect(shown.contains("Line 1500: breathe in, and breathe out.")) // the cue being spoken, at 135 s
    }
}
