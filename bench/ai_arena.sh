#!/usr/bin/env bash
# The AI issue's figures: each pairing over 2,000 duplicate hands (4,000 hands), preset site.
#   bash bench/ai_arena.sh [hand|match] [HANDS] [WORKERS]   (WORKERS defaults to 2)
# Writes bench/out/arena_<mode>_<A>_<B>.txt (the report) and .json (the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
mode="${1:-hand}"
hands="${2:-2000}"
workers="${3:-2}"
mkdir -p bench/out
for pair in heuristic,random heuristic,greedy search,heuristic; do
  name="arena_${mode}_${pair/,/_}"
  .venv/bin/guandan arena --players "$pair" --rules site --hands "$hands" --seed 1 \
    --mode "$mode" --workers "$workers" --no-progress > "bench/out/$name.txt"
  cat "bench/out/$name.txt"
done
