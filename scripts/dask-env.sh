# Source before `dask worker` on a machine that renders: `. scripts/dask-env.sh`.
# The same Dask configuration a LocalCluster of `attention-lesson batch` gets
# (attention_lesson/pipeline/batch.py, QUIET_WORKER; why: docs/cluster.md).
export DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED=False
export DASK_DISTRIBUTED__ADMIN__TICK__INTERVAL=1s
export DASK_DISTRIBUTED__ADMIN__SYSTEM_MONITOR__INTERVAL=5s
# For `dask scheduler` too: work stealing left workers idle 1.7-2.3 s between tasks (docs/cluster.md)
export DASK_DISTRIBUTED__SCHEDULER__WORK_STEALING=False
