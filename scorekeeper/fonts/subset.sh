#!/usr/bin/env bash
# Makes the card's fonts (scorekeeper/card.py): small subsets of openly licensed Noto fonts, so the
# card draws Thai the same on any server. Run from the repository root: `make fonts`. README beside
# this file says where each font comes from and why these characters.
set -euo pipefail
cd "$(dirname "$0")"

NOTO=/usr/share/fonts/truetype/noto  # Debian's fonts-noto-core 20201225-1
[[ -f $NOTO/NotoSansThai-Regular.ttf ]] || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-noto-core; }

# The monochrome Noto Emoji (outlines, which resvg draws; Debian's colour emoji are bitmaps).
EMOJI_VERSION=5.3.2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
(cd "$work" && npm pack --silent "@fontsource/noto-emoji@$EMOJI_VERSION" >/dev/null && tar xzf ./*.tgz)
EMOJI=$work/package/files/noto-emoji-emoji-400-normal.woff

subset() {  # source, output, unicodes
  uv run pyftsubset "$1" --output-file="$2" --unicodes="$3" \
    --no-hinting --name-IDs='*' --drop-tables+=DSIG
}

# Thai with its marks and spaces, so a Thai name with a space stays one run (shaping needs GSUB ccmp and GPOS mark/mkmk, among pyftsubset's defaults).
THAI='U+0020,U+00A0,U+0E01-0E3A,U+0E3F-0E5B,U+200B-200D,U+25CC'
# English and European names, digits, punctuation, · … and typographic quotes and dashes.
LATIN='U+0020-007E,U+00A0-017F,U+2010-2015,U+2018-201E,U+2022,U+2026,U+20AC'
for weight in Regular Bold; do
  subset "$NOTO/NotoSansThai-$weight.ttf" "NotoSansThai-$weight.subset.ttf" "$THAI"
  subset "$NOTO/NotoSans-$weight.ttf" "NotoSans-$weight.subset.ttf" "$LATIN"
done
# Noto Sans 2.004 has no minus sign, arrow or check mark: − → from Noto Sans Math, ✓ ✗ from Symbols2.
subset "$NOTO/NotoSansMath-Regular.ttf" NotoSansMath-Regular.subset.ttf 'U+2212,U+2192'
subset "$NOTO/NotoSansSymbols2-Regular.ttf" NotoSansSymbols2-Regular.subset.ttf 'U+2713,U+2717'

# Emoji people put in their names at a card table; card.py leaves out any other (never a box).
EMOJI_SET='U+2600,U+2605,U+261D,U+263A,U+2660,U+2663,U+2665-2666,U+26A1,U+26BD,U+270C,U+2728,'\
'U+2764,U+2B50,U+1F004,U+1F0CF,U+1F308,U+1F319,U+1F31E-1F31F,U+1F338-1F339,U+1F33B,U+1F340,'\
'U+1F349,U+1F34E,U+1F351-1F353,U+1F355,U+1F35C,U+1F370,U+1F377,U+1F37A-1F37B,U+1F380-1F382,'\
'U+1F388-1F389,U+1F3AE,U+1F3AF-1F3B2,U+1F3B5,U+1F3C0,U+1F3C6,U+1F400-1F43F,U+1F440,'\
'U+1F44A-1F451,U+1F47B,U+1F47D,U+1F480,U+1F48E,U+1F493-1F49F,U+1F4A5,U+1F4A9-1F4AA,U+1F4AF-1F4B0,'\
'U+1F4B5,U+1F4B8,U+1F525,U+1F5A4,U+1F600-1F64F,U+1F680,U+1F90D-1F90E,U+1F910-1F92F,U+1F947-1F949,'\
'U+1F970,U+1F973,U+1F97A,U+1F981,U+1F984,U+1F98A,U+1F9D0,U+1F9E1'
# Emoji as separate characters only: card.py drops joiners, variation selectors and skin tones.
uv run pyftsubset "$EMOJI" --output-file=NotoEmoji-Regular.subset.ttf --unicodes="$EMOJI_SET" \
  --layout-features='' --no-hinting --name-IDs='*' --flavor=
ls -l ./*.subset.ttf
