#!/bin/sh
# Queues the array of shards, then the merge once all of them succeeded.
set -e
cd "$(dirname "$0")"
array=$(sbatch --parsable simulate.sbatch)
sbatch --dependency="afterok:${array%%;*}" merge.sbatch
