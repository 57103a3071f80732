/*
 * helper.c - the sparse method's helper thread (see SUPER in
 * sparse_impl.h), T - 1 of them with --threads T: their start and end,
 * the hand-off of jobs and of the marks of each group, the waits of both
 * sides (spin, then sleep), their buffers, and the timed trials that
 * decide whether they pay on this machine.  Their work itself,
 * sgi_sparse_mark_super, is in run.c beside the other hot loops.
 */
#include "sparse_impl.h"

#include <time.h>

/* The array of sp->nhelp helpers (run_setup); -1 when out of memory. */
int sgi_sparse_helper_alloc(sparse *sp)
{
    size_t bytes = sp->nhelp * sizeof *sp->help;

    if (!sp->nhelp)
        return 0;
    sp->help = aligned_alloc(_Alignof(sparse_helper), bytes);
    if (!sp->help)
        return -1;
    memset(sp->help, 0, bytes);
    return 0;
}

/* Room for the helpers' stamps and output at the current size; they
 * must be idle.  -1 when out of memory. */
int sgi_sparse_helper_buffers(sparse *sp)
{
    unsigned i;
    int ok = 1;

    if (sp->hsize == sp->size)
        return 0;
    if (!sp->help)
        return -1;
    for (i = 0; i < sp->nhelp; i++) {
        sparse_helper *hp = &sp->help[i];
        free(hp->hstamp);
        free(hp->obits);
        hp->hstamp = calloc(HLANES * sp->size, sizeof *hp->hstamp);
        hp->obits = malloc(2 * SUPER * sp->bw * sizeof *hp->obits);
        hp->htag = 0;
        ok &= hp->hstamp && hp->obits;
    }
    sp->hsize = ok ? sp->size : 0;
    return ok ? 0 : -1;
}

/* The helpers' memory (sgi_sparse_free). */
void sgi_sparse_helper_free(sparse *sp)
{
    unsigned i;

    for (i = 0; sp->help && i < sp->nhelp; i++) {
        free(sp->help[i].hstamp);
        free(sp->help[i].obits);
    }
    free(sp->help);
    sp->help = NULL;
}

static inline void cpu_relax(void)
{
#if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    __builtin_ia32_pause();
#endif
}

#ifdef SPARSE_THREADS
/* Wake this thread if it sleeps waiting for a helper. */
static void wake_main(sparse *sp)
{
    if (atomic_load(&sp->sync.m_sleep)) {
        pthread_mutex_lock(&sp->sync.mu);
        pthread_cond_broadcast(&sp->sync.cv);
        pthread_mutex_unlock(&sp->sync.mu);
    }
}

void sgi_sparse_group_done(sparse_helper *hp)
{
    atomic_fetch_add(&hp->groups_done, 1);
    wake_main(hp->sp);
}

static void *helper_main(void *arg)
{
    sparse_helper *hp = arg;
    sparse_sync *y = &hp->sp->sync;

    for (;;) {
        unsigned long j = atomic_load(&hp->done_seq);
        unsigned spins = 0;
        sparse_job jb;
        /* A job comes every few tens of microseconds while the helpers
         * pay: spin for it, sleep only when none comes for a while. */
        while (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit) &&
               spins++ < SPIN_LIMIT)
            cpu_relax();
        if (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit)) {
            pthread_mutex_lock(&y->mu);
            atomic_fetch_add(&y->h_sleep, 1);
            while (atomic_load(&y->job_seq) == j && !atomic_load(&y->quit))
                pthread_cond_wait(&y->cv, &y->mu);
            atomic_fetch_sub(&y->h_sleep, 1);
            pthread_mutex_unlock(&y->mu);
        }
        if (atomic_load(&y->quit))
            break;
        jb = y->jobs[j % 2];
        sgi_sparse_mark_super(hp, &jb);
        atomic_store(&hp->done_seq, j + 1);
        wake_main(hp->sp);
    }
    return NULL;
}

/* Start the nhelp helpers (sp->help allocated); 0 when not all of them
 * could be (those that were end again). */
static int helpers_start(sparse *sp)
{
    sparse_sync *y = &sp->sync;
    unsigned i;

    if (pthread_mutex_init(&y->mu, NULL))
        return 0;
    if (pthread_cond_init(&y->cv, NULL)) {
        pthread_mutex_destroy(&y->mu);
        return 0;
    }
    atomic_init(&y->quit, 0);
    atomic_init(&y->h_sleep, 0);
    atomic_init(&y->m_sleep, 0);
    atomic_init(&y->job_seq, 0);
    for (i = 0; i < sp->nhelp; i++) {
        sparse_helper *hp = &sp->help[i];
        hp->sp = sp;
        hp->id = i;
        atomic_init(&hp->done_seq, 0);
        atomic_init(&hp->groups_done, 0);
        if (pthread_create(&hp->thread, NULL, helper_main, hp))
            break;
    }
    if (i == sp->nhelp) {
        y->started = 1;
        return 1;
    }
    pthread_mutex_lock(&y->mu);
    atomic_store(&y->quit, 1);
    pthread_cond_broadcast(&y->cv);
    pthread_mutex_unlock(&y->mu);
    while (i-- > 0)
        pthread_join(sp->help[i].thread, NULL);
    pthread_cond_destroy(&y->cv);
    pthread_mutex_destroy(&y->mu);
    return 0;
}

/* Queue a job for every helper (at most one other may be pending),
 * starting them the first time.  0 when none could be started (the
 * caller then marks everything itself). */
int sgi_sparse_helper_post(sparse *sp, const sparse_job *jb)
{
    unsigned long j;

    if (!sp->sync.started && (!sp->help || !helpers_start(sp))) {
        sp->no_threads = 1;
        return 0;
    }
    j = atomic_load(&sp->sync.job_seq);
    sp->sync.jobs[j % 2] = *jb;
    sp->sync.jobs[j % 2].parts = sp->nhelp;
    atomic_store(&sp->sync.job_seq, j + 1);
    if (atomic_load(&sp->sync.h_sleep)) {
        pthread_mutex_lock(&sp->sync.mu);
        pthread_cond_broadcast(&sp->sync.cv);
        pthread_mutex_unlock(&sp->sync.mu);
    }
    return 1;
}

int sgi_sparse_helper_until(sparse *sp, _Atomic unsigned long *counter,
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

/* Wait until every job handed out is done by every helper (*out: whether
 * any may be pending), before changing what the helpers read. */
void sgi_sparse_helper_wait(sparse *sp, int *out)
{
    unsigned long j;
    unsigned i;

    if (!*out)
        return;
    j = atomic_load(&sp->sync.job_seq);
    for (i = 0; i < sp->nhelp; i++)
        sgi_sparse_helper_until(sp, &sp->help[i].done_seq, j);
    *out = 0;
}

void sgi_sparse_helper_stop(sparse *sp, int *out)
{
    unsigned i;

    sgi_sparse_helper_wait(sp, out);
    if (!sp->sync.started)
        return;
    pthread_mutex_lock(&sp->sync.mu);
    atomic_store(&sp->sync.quit, 1);
    pthread_cond_broadcast(&sp->sync.cv);
    pthread_mutex_unlock(&sp->sync.mu);
    for (i = 0; i < sp->nhelp; i++)
        pthread_join(sp->help[i].thread, NULL);
    pthread_cond_destroy(&sp->sync.cv);
    pthread_mutex_destroy(&sp->sync.mu);
    sp->sync.started = 0;
}
#else
void sgi_sparse_group_done(sparse_helper *hp)
{
    (void)hp;
}

int sgi_sparse_helper_post(sparse *sp, const sparse_job *jb)
{
    (void)jb;
    sp->no_threads = 1;
    return 0;
}

void sgi_sparse_helper_wait(sparse *sp, int *out)
{
    (void)sp;
    *out = 0;
}

void sgi_sparse_helper_stop(sparse *sp, int *out)
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
int sgi_sparse_trials_next(sparse_trials *tr, int mode)
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
