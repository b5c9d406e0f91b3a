#!/bin/bash
# One public-set benchmark run with the shipped retrieval policy changed in one place:
#   benchmarks/quality/variant.sh TAG 'locomo longmemeval' all|dev|test key=value...
# key=on|off sets a feature; any other key=value a planner (or decision) setting. The policy is a
# copy in /tmp/cfg/TAG, used through MEMORY_CONFIG; reports go to /tmp/bench/TAG-<dataset>.json.
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p /tmp/cfg /tmp/bench
TAG=$1; DS=$2; H=$3; shift 3
D=/tmp/cfg/$TAG; rm -rf $D; cp -r "$ROOT/config" $D
python - "$D/retrieval-policy.json" "$@" <<'PY'
import json,sys
p=sys.argv[1]; d=json.load(open(p))
for kv in sys.argv[2:]:
    k,v=kv.split('=')
    if v in ('on','off'): d['features'][k]= v=='on'
    elif k in d['decision']: d['decision'][k]=float(v)
    else: d['planner'][k]=float(v)
json.dump(d,open(p,'w'),indent=2)
PY
cd "$ROOT"
export PYTHONPATH="$ROOT" MEMORY_CONFIG=$D
for ds in $DS; do
  f=../shared/data/locomo/locomo5_dev.json; [ $ds = longmemeval ] && f=../shared/data/longmemeval/longmemeval_s_dev100.json.gz
  /usr/bin/time -f "%e s" nice -n 5 python memory.py benchmark $ds $f --half $H --json > /tmp/bench/$TAG-$ds.json 2>/tmp/bench/$TAG-$ds.err
done
