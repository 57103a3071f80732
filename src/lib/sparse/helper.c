/*
 * helper.c - the sparse method's helper thread (see SUPER in
 * sparse_impl.h): its start and end, the hand-off of jobs and of the
 * marks of each group, the waits of both sides (spin, then sleep), its
 * buffers, and the timed trials that decide whether it pays on this
 * machine.  Its work itself, sparse_mark_super, is in run.c beside the
 * other hot loops.
 */
#include "sparse_impl.h"

#ifdef SPARSE_THREADS
#include <unistd.h>
#endif
#include <time.h>

/* Room for the helper's stamps and output at the current size; the
 * helper must be idle.  -1 when out of memory. */
int sparse_helper_buffers(sparse *sp)
{
    if (sp->hsize == sp->size)
        return 0;
    free(sp->hstamp);
    free(sp->obits);
    sp->hstamp = calloc(HLANES * sp->size, sizeof *sp->hstamp);
    sp->obits = malloc(2 * SUPER * sp->bw * sizeof *sp->obits);
    sp->htag = 0;
    sp->hsize = sp->hstamp && sp->obits ? sp->size : 0;
    return sp->hsize ? 0 : -1;
}

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

#ifdef SPARSE_THREADS
/* Wake this thread if it sleeps waiting for the helper. */
static void wake_main(sparse *sp)
{
    if (atomic_load(&sp->sync.m_sleep)) {
        pthread_mutex_lock(&sp->sync.mu);
        pthread_cond_broadcast(&sp->sync.cv);
        pthread_mutex_unlock(&sp->sync.mu);
    }
}

void sparse_group_done(sparse *sp)
{
    atomic_fetch_add(&sp->sync.groups_done, 1);
    wake_main(sp);
}

static void *helper_main(void *arg)
{
    sparse *sp = arg;
    sparse_sync *y = &sp->sync;

    for (;;) {
        unsigned long j = atomic_load(&y->done_seq);
        unsigned spins = 0;
        sparse_job jb;
        /* A job comes every few tens of microseconds while the helper
         * pays: spin for it, sleep only when none comes for a while. */
        while (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit) &&
               spins++ < SPIN_LIMIT)
            cpu_relax();
        if (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit)) {
            pthread_mutex_lock(&y->mu);
            atomic_store(&y->h_sleep, 1);
            while (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit))
                pthread_cond_wait(&y->cv, &y->mu);
            atomic_store(&y->h_sleep, 0);
            pthread_mutex_unlock(&y->mu);
        }
        if (atomic_load(&y->quit))
            break;
        jb = y->jobs[j % 2];
        sparse_mark_super(sp, &jb);
        atomic_store(&y->done_seq, j + 1);
        wake_main(sp);
    }
    return NULL;
}

/* Queue a job for the helper (at most one other may be pending),
 * starting it the first time.  0 when it could not be started, or there
 * is one processor only (the caller then marks everything itself). */
int sparse_helper_post(sparse *sp, const sparse_job *jb)
{
    unsigned long j;

    if (!sp->sync.started) {
        if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
            sp->no_threads = 1;
            return 0;
        }
        if (pthread_mutex_init(&sp->sync.mu, NULL))
            return 0;
        if (pthread_cond_init(&sp->sync.cv, NULL)) {
            pthread_mutex_destroy(&sp->sync.mu);
            return 0;
        }
        atomic_init(&sp->sync.quit, 0);
        atomic_init(&sp->sync.h_sleep, 0);
        atomic_init(&sp->sync.m_sleep, 0);
        atomic_init(&sp->sync.job_seq, 0);
        atomic_init(&sp->sync.done_seq, 0);
        atomic_init(&sp->sync.groups_done, 0);
        if (pthread_create(&sp->sync.thread, NULL, helper_main, sp)) {
            pthread_cond_destroy(&sp->sync.cv);
            pthread_mutex_destroy(&sp->sync.mu);
            sp->no_threads = 1;
            return 0;
        }
        sp->sync.started = 1;
    }
    j = atomic_load(&sp->sync.job_seq);
    sp->sync.jobs[j % 2] = *jb;
    atomic_store(&sp->sync.job_seq, j + 1);
    if (atomic_load(&sp->sync.h_sleep)) {
        pthread_mutex_lock(&sp->sync.mu);
        pthread_cond_broadcast(&sp->sync.cv);
        pthread_mutex_unlock(&sp->sync.mu);
    }
    return 1;
}

int sparse_helper_until(sparse *sp, _Atomic unsigned long *counter,
                        unsigned long target)
{
    unsigned spins = 0;

    if (atomic_load(counter) >= target)
        return 0;
    while (atomic_load(counter) < target && spins++ < SPIN_LIMIT)
        cpu_relax();
    if (atomic_load(counter) < target) {
        pthread_mutex_lock(&sp->sync.mu);
        atomic_store(&sp->sync.m_sleep, 1);
        while (atomic_load(counter) < target)
            pthread_cond_wait(&sp->sync.cv, &sp->sync.mu);
        atomic_store(&sp->sync.m_sleep, 0);
        pthread_mutex_unlock(&sp->sync.mu);
    }
    return 1;
}

/* Wait until every job handed out is done (*out: whether any may be
 * pending), before changing what the helper reads. */
void sparse_helper_wait(sparse *sp, int *out)
{
    if (!*out)
        return;
    sparse_helper_until(sp, &sp->sync.done_seq, atomic_load(&sp->sync.job_seq));
    *out = 0;
}

void sparse_helper_stop(sparse *sp, int *out)
{
    sparse_helper_wait(sp, out);
    if (!sp->sync.started)
        return;
    pthread_mutex_lock(&sp->sync.mu);
    atomic_store(&sp->sync.quit, 1);
    pthread_cond_broadcast(&sp->sync.cv);
    pthread_mutex_unlock(&sp->sync.mu);
    pthread_join(sp->sync.thread, NULL);
    pthread_cond_destroy(&sp->sync.cv);
    pthread_mutex_destroy(&sp->sync.mu);
    sp->sync.started = 0;
}
#else
void sparse_group_done(sparse *sp)
{
    (void)sp;
}

int sparse_helper_post(sparse *sp, const sparse_job *jb)
{
    (void)sp;
    (void)jb;
    return 0;
}

void sparse_helper_wait(sparse *sp, int *out)
{
    (void)sp;
    *out = 0;
}

void sparse_helper_stop(sparse *sp, int *out)
{
    (void)sp;
    *out = 0;
}
#endif

static double wall_clock(void)
{
    struct timespec t;

    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

/* Account the superblock just finished (which ran with the helper's
 * marks when `mode`) and say whether the next one should get a helper
 * job posted. */
int sparse_trials_next(sparse_trials *tr, int mode)
{
    double t = wall_clock();
    size_t phase;

    phase = tr->done++ % TRIAL_CYCLE;
    if (phase == 0) {
        tr->time[0] = tr->time[1] = 0;
        tr->count[0] = tr->count[1] = 0;
    } else if (phase <= 2 * TRIAL + 1 && tr->last > 0 && tr->mode >= 0) {
        tr->time[tr->mode] += t - tr->last;
        tr->count[tr->mode]++;
    }
    tr->last = t;
    tr->mode = mode;
    if (phase == 2 * TRIAL + 1 && tr->count[0] && tr->count[1])
        tr->best = tr->time[1] / tr->count[1] < tr->time[0] / tr->count[0];
    /* Posting now decides the mode of the superblock after the next. */
    return phase < TRIAL ? 1 : phase <= 2 * TRIAL ? 0 : tr->best;
}
