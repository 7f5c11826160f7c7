#!/usr/bin/env bash
# Remakes the screenshots of docs/screenshots/ (README, docs/VIEWS.md):
# for each game, a game of random moves is saved, its replay page written
# (`tabula replay --html`) and a frame of it photographed by headless
# Chromium; and the `tabula serve` page of Tigris & Euphrates.
# Usage: docs/screenshots/make.sh [path/to/tabula]
set -euo pipefail
cd "$(dirname "$0")/../.."
bin=${1:-target/release/tabula}
out=docs/screenshots
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"; [ -n "${server:-}" ] && kill "$server" 2>/dev/null || true' EXIT
shot() { chromium --headless --no-sandbox --disable-gpu --hide-scrollbars \
  --window-size="$3" --virtual-time-budget=3000 --screenshot="$2" "$1" >/dev/null 2>&1; }
for spec in tzolkin:300:1300,1000 tigris-euphrates:160:1300,900 mexica:120:1300,1000 cuzco:150:1400,1000; do
  IFS=: read -r game n size <<<"$spec"
  python3 -c "
import random, sys
random.seed(7)
for _ in range(100000): print(random.randint(1, 4))" \
    | "$bin" play "$game" -p 2 --seed 7 --no-color --max-decisions 400 --log "$tmp/$game.json" >/dev/null 2>&1 || true
  "$bin" replay "$tmp/$game.json" --html "$tmp/$game.html" --unverified >/dev/null
  shot "file://$tmp/$game.html#$n" "$out/$game.png" "$size"
done
"$bin" serve tigris-euphrates --port 0 --seed 3 > "$tmp/serve.out" &
server=$!
sleep 1
url=$(grep -o 'http://[^ ]*' "$tmp/serve.out")
shot "$url" "$out/serve-tigris-euphrates.png" 1400,900
ls -l "$out"
