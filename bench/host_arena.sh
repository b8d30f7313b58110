#!/usr/bin/env bash
# One duplicate arena run of our player against two copies of a competition rule bot, through
# the protocol: bench/host_arena.sh BOT OURS PORT HANDS [FIRST] [OUTDIR]
#   BOT: ai2, ai3 or ai6 (../shared/compbots); OURS: greedy, heuristic or search (search draws 16
#   sampled deals, SAMPLES=N to change it, so its figures repeat on any machine; SAMPLES=budget:
#   the page's time budget instead).
#   MODE=hand (environment) plays one-hand boards instead of whole matches. VENV names the
#   virtual environment (default the repository's .venv); with PYTHONPATH set to another
#   checkout, that checkout's code plays. A long row is played in parts (FIRST: the first deal
#   set) and added up by bench/host_summary.py; two runs of the same boards compare hand by
#   hand with bench/paired_hands.py.
#   (The diagnostic players it also seated, the oracle and the search with a fitted model of
#   the bot, were retired with the experiments: tag experiments-stop42, docs/ai-notebook.md.)
# The bot's folder is copied to OUTDIR (default /tmp/host_arena/BOT-OURS[-FIRST]) because the
# bots write files beside themselves; their output goes to /dev/null. Prints the arena's JSON
# (with its "outside" figures) to OUTDIR/result.json and the hand records to records.jsonl.
set -euo pipefail
bot=$1; ours=$2; port=$3; hands=$4; first=${5:-1}
case $ours in
  greedy|heuristic|search) ;;
  *) echo "OURS is greedy, heuristic or search" >&2; exit 2;;
esac
root="$(cd "$(dirname "$0")/.." && pwd)"
dir=${6:-/tmp/host_arena/$bot-$ours-$first}
rm -rf "$dir"; mkdir -p "$(dirname "$dir")"
venv=${VENV:-$root/.venv}
cp -r "$root/../shared/compbots/$bot" "$dir"; cd "$dir"
case $bot in
  ai2) clients="client0.py client2.py";;
  ai3) clients="对抗AI1.py 对抗AI2.py";;
  ai6) clients="client1.py client2.py";;
  *) echo "BOT is ai2, ai3 or ai6" >&2; exit 2;;
esac
extra="--mode ${MODE:-match}"
# SAMPLES=budget: the search at the page's time budget (no --samples)
[ "$ours" = search ] && [ "${SAMPLES:-16}" != budget ] && extra="$extra --samples ${SAMPLES:-16}"
# --timeout 60: the machine is shared, and a bot's think must not be cut short by its load
"$venv/bin/python" -m guandan arena --players "$ours,outside" --listen "$port" --hands "$hands" \
  --first "$first" --timeout 60 $extra --out records.jsonl --json > result.json 2> arena.err &
arena=$!
until grep -q listening arena.err 2>/dev/null; do sleep 0.2; done
for c in $clients; do
  sed "s/23456/$port/" "$c" > "run_$c"
  "$venv/bin/python" "run_$c" > /dev/null 2>&1 &
done
wait $arena
"$venv/bin/python" -m guandan validate records.jsonl
echo "$dir/result.json"
