import Testing
@testable import StillroomCore

@Suite struct ContrastTests {
    @Test func wcagReferenceValues() {
        let black = Color(hex: 0x000000), white = Color(hex: 0xFFFFFF)
        #expect(abs(black.contrastRatio(with: white) - 21) < 1e-9)
        #expect(abs(white.contrastRatio(with: white) - 1) < 1e-9)
        // #777777 on white is the classic just-below-AA grey (4.48:1); #767676 just passes (4.54:1).
        #expect(abs(Color(hex: 0x777777).contrastRatio(with: white) - 4.48) < 0.01)
        #expect(abs(Color(hex: 0x767676).contrastRatio(with: white) - 4.54) < 0.01)
        #expect(abs(Color(hex: 0xFF0000).relativeLuminance - 0.2126) < 1e-9)
        // Symmetric.
        #expect(Color(hex: 0x3B6A5D).contrastRatio(with: white) == white.contrastRatio(with: Color(hex: 0x3B6A5D)))
    }

    @Test func powerMatchesKnownValues() {
        #expect(abs(ScalarMath.pow(2, 10) - 1024) < 1e-9)
        #expect(abs(ScalarMath.pow(0.5, 2.4) - 0.189_464_570_813_799_78) < 1e-13)
        #expect(abs(ScalarMath.pow(10, -3) - 0.001) < 1e-15)
        #expect(abs(ScalarMath.log(1) - 0) < 1e-15)
        #expect(abs(ScalarMath.exp(1) - 2.718_281_828_459_045) < 1e-14)
    }

    @Test(arguments: Appearance.allCases)
    func everyTextColourMeetsAAOnItsGround(_ appearance: Appearance) {
        for pair in Palette.of(appearance).textPairs {
            let ratio = pair.text.contrastRatio(with: pair.ground)
            #expect(ratio >= 4.5, "\(appearance) \(pair.name): \(ratio)")
        }
    }

    @Test(arguments: Appearance.allCases)
    func meaningfulGraphicsMeetThreeToOne(_ appearance: Appearance) {
        for pair in Palette.of(appearance).graphicPairs {
            let ratio = pair.graphic.contrastRatio(with: pair.ground)
            #expect(ratio >= 3, "\(appearance) \(pair.name): \(ratio)")
        }
    }

    /// The phase label is drawn on the breathing circle's translucent body, over its glow: check the
    /// colour the eye actually sees there.
    @Test(arguments: Appearance.allCases)
    func breathingLabelIsReadableOnTheCircle(_ appearance: Appearance) throws {
        let tokens = DesignTokens(appearance: appearance, screen: PixelSize(width: 800, height: 480))
        let scene = PlayerScene.make(PlayerModel(title: "T", themeLabel: "Breathe", elapsed: .zero, duration: .seconds(60),
                                                 isPlaying: true, breath: .resting(at: 0)), tokens: tokens)
        guard case .circle(let body)? = scene.node(PlayerScene.IDs.body)?.content,
              case .circle(let halo)? = scene.node(PlayerScene.IDs.halo)?.content,
              case .text(let label)? = scene.node(PlayerScene.IDs.phase)?.content,
              let fill = body.fill, let haloFill = halo.fill else { Issue.record("player scene lacks its circle"); return }
        let ground = fill.composited(over: haloFill.composited(over: tokens.palette.background))
        #expect(label.color.contrastRatio(with: ground) >= 4.5)
    }

    /// Night is for a dark bedroom: every colour dim, none with more blue than red.
    @Test func nightPaletteIsDimWarmAndHasNoBrightBlue() {
        for (name, color) in Palette.night.all {
            #expect(color.blue <= color.red, "\(name) \(color) leans blue")
            #expect(color.relativeLuminance <= 0.36, "\(name) \(color) is too bright for night")
        }
        let brightestNight = Palette.night.all.map(\.color.relativeLuminance).max()!
        let brightestDay = Palette.day.all.map(\.color.relativeLuminance).max()!
        #expect(brightestNight < brightestDay / 2)
    }

    /// Not the palettes of well-known meditation products: no marigold/orange accent on cream, no
    /// night-sky blue ground.
    @Test func paletteIsOurOwn() {
        for palette in [Palette.day, Palette.night] {
            let ground = palette.background
            #expect(!(ground.blue > ground.red + 0.1), "ground is a blue night sky")
            let accent = palette.accent
            let marigold = accent.red > 0.85 && accent.green > 0.5 && accent.blue < 0.35
            #expect(!marigold, "accent is marigold")
        }
    }

    @Test func tokensScaleTypeGentlyAndNeverBelowTheMinimum() {
        let reference = DesignTokens(appearance: .day, screen: PixelSize(width: 800, height: 480))
        let small = DesignTokens(appearance: .day, screen: PixelSize(width: 480, height: 320))
        let tiny = DesignTokens(appearance: .day, screen: PixelSize(width: 320, height: 240))
        let large = DesignTokens(appearance: .day, screen: PixelSize(width: 480, height: 320), largeText: true)
        #expect(reference.type.body.size == TypeScale.reference.body.size)
        #expect(small.type.body.size < reference.type.body.size)
        #expect(small.type.body.size / reference.type.body.size > small.spacing.edge / reference.spacing.edge)
        for tokens in [reference, small, tiny, large] {
            for style in [tokens.type.title, tokens.type.heading, tokens.type.body, tokens.type.numeric, tokens.type.label, tokens.type.caption] {
                #expect(style.size >= TypeScale.minimumSize)
            }
        }
        #expect(large.type.body.size >= small.type.body.size * 1.2)
    }
}
