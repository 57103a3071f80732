/*
 * plot_gnuplot.c - running gnuplot, a separate program found at run time:
 * the image types and their terminals, the destination file (opened
 * before gnuplot runs, written only once it succeeded), the temporary
 * directory, the scripts made of a template and the variables it reads,
 * and gnuplot itself, run so that it can never write to our stdout, its
 * error text summarised into sg_error (like all of libsg this file never
 * prints).
 */
#define _DEFAULT_SOURCE
#include "plot_impl.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

/* Bytes of gnuplot's stderr kept for the error message. */
#define STDERR_KEEP 8192

/* ------------------------------------------------------------------ */
/* Image types and terminals                                            */
/* ------------------------------------------------------------------ */

sg_plot_format sg_plot_format_of(const char *path)
{
    const char *dot = strrchr(path, '.'), *slash = strrchr(path, '/');

    if (!dot || (slash && dot < slash) || dot == path ||
        (slash && dot == slash + 1))
        return SG_PLOT_UNKNOWN;
    if (strcasecmp(dot, ".png") == 0)
        return SG_PLOT_PNG;
    if (strcasecmp(dot, ".svg") == 0)
        return SG_PLOT_SVG;
    if (strcasecmp(dot, ".pdf") == 0)
        return SG_PLOT_PDF;
    return SG_PLOT_UNKNOWN;
}

/* The `terminal` variable of a script: the terminal for the type, a size
 * in its units, and no enhanced text (so that underscores and braces in
 * rule names stay as they are). */
static const char *terminal_text(sg_plot_format fmt, int wide)
{
    switch (fmt) {
    case SG_PLOT_PNG:
        return wide ? "pngcairo size 1200,540 noenhanced"
                    : "pngcairo size 960,540 noenhanced";
    case SG_PLOT_SVG:
        return wide ? "svg size 1200,540 noenhanced background '#ffffff'"
                    : "svg size 960,540 noenhanced background '#ffffff'";
    case SG_PLOT_PDF:
    case SG_PLOT_UNKNOWN:
    default:
        return wide ? "pdfcairo size 10in,4.5in noenhanced"
                    : "pdfcairo size 8in,4.5in noenhanced";
    }
}

/* How wide a title line may be, in thousandths of an em: the image's
 * width less a margin, over the em of PNG's 12 point font (16.5 pixels,
 * measured).  The SVG (Arial 12, an em of 12 units) and PDF (12 points at
 * fontscale 0.5 on 8 inches) terminals have more room, so this suits all
 * three. */
unsigned long sgi_plot_title_width(int wide)
{
    return (unsigned long)((wide ? 1200 : 960) - 60) * 1000 * 2 / 33;
}

static const char *format_suffix(sg_plot_format fmt)
{
    return fmt == SG_PLOT_PNG ? "png" : fmt == SG_PLOT_SVG ? "svg" : "pdf";
}

/* ------------------------------------------------------------------ */
/* The destination file                                                 */
/* ------------------------------------------------------------------ */

sg_status sgi_plot_dest_open(dest *d, const char *path, sg_error *err)
{
    int e;

    d->path = path;
    d->created = 0;
    d->fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (d->fd >= 0) {
        d->created = 1;
        return SG_OK;
    }
    if (errno == EEXIST) {
        d->fd = open(path, O_WRONLY | O_CLOEXEC);
        if (d->fd >= 0)
            return SG_OK;
    }
    e = errno;
    if (e == ENOENT) {
        /* Say which directory is missing. */
        const char *slash = strrchr(path, '/');
        if (slash && slash != path) {
            char *dir = strndup(path, (size_t)(slash - path));
            struct stat st;
            if (dir && stat(dir, &st) != 0) {
                sg_error_set(err, SG_E_IO, -1,
                             "cannot write '%s': the directory '%s' does not "
                             "exist",
                             path, dir);
                free(dir);
                return SG_E_IO;
            }
            free(dir);
        }
    }
    return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", path,
                        strerror(e));
}

/* Give up: close, and remove the file if we created it. */
void sgi_plot_dest_abort(dest *d)
{
    if (d->fd >= 0) {
        close(d->fd);
        d->fd = -1;
        if (d->created)
            unlink(d->path);
    }
}

static int write_all(int fd, const char *buf, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, buf, n);
        if (w < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

/* Copy the finished image into the destination. */
static sg_status dest_finish(dest *d, const char *image, sg_error *err)
{
    char buf[65536];
    struct stat st;
    int in, e = 0;
    ssize_t r;

    in = open(image, O_RDONLY | O_CLOEXEC);
    if (in < 0) {
        e = errno;
        sgi_plot_dest_abort(d);
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot read gnuplot's image '%s': %s", image,
                            strerror(e));
    }
    if (fstat(d->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        ftruncate(d->fd, 0) != 0)
        e = errno;
    while (!e && (r = read(in, buf, sizeof buf)) != 0) {
        if (r < 0) {
            if (errno != EINTR)
                e = errno;
            continue;
        }
        if (write_all(d->fd, buf, (size_t)r) != 0)
            e = errno;
    }
    close(in);
    if (close(d->fd) != 0 && !e)
        e = errno;
    d->fd = -1;
    if (e) {
        if (d->created)
            unlink(d->path);
        return sg_error_set(err, SG_E_IO, -1, "cannot write '%s': %s", d->path,
                            strerror(e));
    }
    return SG_OK;
}

/* ------------------------------------------------------------------ */
/* The temporary directory: script, data, image                         */
/* ------------------------------------------------------------------ */

static char *path_join(const char *dir, const char *name)
{
    size_t n = strlen(dir) + strlen(name) + 2;
    char *p = malloc(n);

    if (p)
        snprintf(p, n, "%s/%s", dir, name);
    return p;
}

sg_status sgi_plot_workdir_make(workdir *w, const sg_plot_options *opt,
                                sg_plot_format fmt, sg_error *err)
{
    const char *base = opt && opt->tmpdir ? opt->tmpdir : getenv("TMPDIR");
    char image[16];
    size_t n;

    memset(w, 0, sizeof *w);
    if (!base || !*base)
        base = "/tmp";
    /* The names go into a gnuplot script, one string per line. */
    if (strpbrk(base, "\n\r"))
        return sg_error_set(err, SG_E_IO, -1,
                            "the temporary directory name contains a line "
                            "break (TMPDIR)");
    n = strlen(base) + sizeof "/sgexplore-plot-XXXXXX";
    w->dir = malloc(n);
    if (!w->dir)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    snprintf(w->dir, n, "%s/sgexplore-plot-XXXXXX", base);
    if (!mkdtemp(w->dir)) {
        int e = errno;
        free(w->dir);
        w->dir = NULL;
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot create a temporary directory in '%s': %s",
                            base, strerror(e));
    }
    snprintf(image, sizeof image, "image.%s", format_suffix(fmt));
    w->script = path_join(w->dir, "script.gp");
    w->data = path_join(w->dir, "data.txt");
    w->image = path_join(w->dir, image);
    if (!w->script || !w->data || !w->image)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    return SG_OK;
}

/* Remove the directory and everything sgexplore put in it. */
void sgi_plot_workdir_remove(workdir *w)
{
    if (w->dir) {
        if (w->script)
            unlink(w->script);
        if (w->data)
            unlink(w->data);
        if (w->image)
            unlink(w->image);
        rmdir(w->dir);
    }
    free(w->script);
    free(w->data);
    free(w->image);
    free(w->dir);
    memset(w, 0, sizeof *w);
}

/* ------------------------------------------------------------------ */
/* Scripts                                                              */
/* ------------------------------------------------------------------ */

/* `name = 'text'` in gnuplot syntax: inside single quotes '' stands for
 * one quote; a line break, which a single-quoted string cannot hold, is
 * spliced in as "\n" (`'line 1' . "\n" . 'line 2'`); carriage returns
 * become spaces. */
void sgi_plot_put_var_str(FILE *f, const char *name, const char *text)
{
    fprintf(f, "%s = '", name);
    for (; *text; text++) {
        if (*text == '\'')
            fputs("''", f);
        else if (*text == '\n')
            fputs("' . \"\\n\" . '", f);
        else if (*text == '\r')
            fputc(' ', f);
        else
            fputc(*text, f);
    }
    fputs("'\n", f);
}

void sgi_plot_put_var_u64(FILE *f, const char *name, uint64_t v)
{
    fprintf(f, "%s = %llu\n", name, (ull)v);
}

static unsigned count_lines(const char *s)
{
    unsigned n = 0;

    for (; *s; s++)
        n += *s == '\n';
    return n;
}

/* Read a user's template file whole. */
static sg_status read_template(char **out, const char *path, sg_error *err)
{
    FILE *f = fopen(path, "r");
    size_t cap = 0, n = 0;
    char *buf = NULL;

    *out = NULL;
    if (!f)
        return sg_error_set(err, SG_E_IO, -1, "cannot read template '%s': %s",
                            path, strerror(errno));
    for (;;) {
        if (sg_grow(&buf, &cap, n + 4096, 1)) {
            free(buf);
            fclose(f);
            return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
        }
        n += fread(buf + n, 1, cap - n - 1, f);
        if (n + 1 < cap)
            break;
        if (cap >= ((size_t)1 << 24)) {
            free(buf);
            fclose(f);
            return sg_error_set(err, SG_E_INPUT, -1,
                                "template '%s' is too large", path);
        }
    }
    if (ferror(f)) {
        int e = errno;
        free(buf);
        fclose(f);
        return sg_error_set(err, SG_E_IO, -1, "cannot read template '%s': %s",
                            path, strerror(e));
    }
    fclose(f);
    buf[n] = '\0';
    *out = buf;
    return SG_OK;
}

/* Start a script with the variables every template reads. */
sg_status sgi_plot_script_begin(script *sc, const workdir *w,
                                sg_plot_format fmt, int wide, const char *title,
                                sg_error *err)
{
    memset(sc, 0, sizeof *sc);
    sc->vars = open_memstream(&sc->text, &sc->len);
    if (!sc->vars)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    fputs("# Variables filled in by sgexplore; the template follows.\n",
          sc->vars);
    sgi_plot_put_var_str(sc->vars, "terminal", terminal_text(fmt, wide));
    sgi_plot_put_var_str(sc->vars, "outfile", w->image);
    sgi_plot_put_var_str(sc->vars, "datafile", w->data);
    sgi_plot_put_var_str(sc->vars, "plottitle", title);
    return SG_OK;
}

/* Write the script file: the variables, then the template (the user's
 * file when opt names one, else the built-in text). */
static sg_status script_write(script *sc, const workdir *w, const char *builtin,
                              const char *builtin_name,
                              const sg_plot_options *opt, sg_error *err)
{
    char *user = NULL;
    FILE *f;
    sg_status st;

    /* The labels are UTF-8; and a template that forgets its terminal
     * still draws the requested type, never into an X window. */
    fputs("set encoding utf8\nset terminal @terminal\n"
          "# ---- template ----\n",
          sc->vars);
    if (fclose(sc->vars) != 0 || !sc->text) {
        sc->vars = NULL;
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    }
    sc->vars = NULL;
    sc->preamble_lines = count_lines(sc->text);
    sc->template_name = builtin_name;
    if (opt && opt->template_file) {
        st = read_template(&user, opt->template_file, err);
        if (st)
            return st;
        sc->template_name = opt->template_file;
    }
    st = sgi_plot_file_open(&f, w->script, err);
    if (!st) {
        fputs(sc->text, f);
        fputs(user ? user : builtin, f);
        st = sgi_plot_file_close(f, w->script, err);
    }
    free(user);
    return st;
}

static void script_clear(script *sc)
{
    if (sc->vars)
        fclose(sc->vars);
    free(sc->text);
    memset(sc, 0, sizeof *sc);
}

/* ------------------------------------------------------------------ */
/* Running gnuplot                                                      */
/* ------------------------------------------------------------------ */

static const char *gnuplot_program(const sg_plot_options *opt)
{
    const char *e;

    if (opt && opt->gnuplot && *opt->gnuplot)
        return opt->gnuplot;
    e = getenv("SGEXPLORE_GNUPLOT");
    if (e && *e)
        return e;
    return "gnuplot";
}

/* A pipe whose ends are close-on-exec and above the standard streams
 * (so that dup2 onto 0-2 in the child never clobbers them). */
static int pipe_cloexec(int fd[2])
{
    int i;

    if (pipe(fd) != 0)
        return -1;
    for (i = 0; i < 2; i++) {
        int nfd = fcntl(fd[i], F_DUPFD_CLOEXEC, 3);
        if (nfd < 0) {
            int e = errno;
            close(fd[0]);
            close(fd[1]);
            errno = e;
            return -1;
        }
        close(fd[i]);
        fd[i] = nfd;
    }
    return 0;
}

static int has_text(const char *p, size_t len, const char *word)
{
    size_t wl = strlen(word), i;

    for (i = 0; i + wl <= len; i++)
        if (memcmp(p + i, word, wl) == 0)
            return 1;
    return 0;
}

/*
 * gnuplot's stderr as one line for sg_error: blank lines, the caret lines
 * pointing into the echoed command and (when there is an error) warnings
 * are dropped, the rest is joined with "; ", and `"SCRIPT" line N:` becomes
 * the line of the template the user knows.  Keeps the end when too long.
 */
static void summarise_stderr(char *out, size_t outsz, const char *text,
                             const char *path, const script *sc)
{
    size_t pl = strlen(path), tl = strlen(sc->template_name);
    char *buf = malloc(strlen(text) + (tl + 64) * (count_lines(text) + 1) + 1);
    const char *line = text;
    size_t n = 0;
    int any_error = strstr(text, "\" line ") != NULL;

    out[0] = '\0';
    if (!buf)
        return;
    buf[0] = '\0';
    while (*line) {
        const char *end = strchr(line, '\n'), *p = line, *q;
        size_t len;

        if (!end)
            end = line + strlen(line);
        while (p < end && (*p == ' ' || *p == '\t'))
            p++;
        q = end;
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r'))
            q--;
        len = (size_t)(q - p);
        line = *end ? end + 1 : end;
        if (len == 0 || (len == 1 && *p == '^') ||
            (any_error && has_text(p, len, "warning:")))
            continue;
        if (n) {
            memcpy(buf + n, "; ", 2);
            n += 2;
        }
        if (len > pl + 8 && p[0] == '"' && memcmp(p + 1, path, pl) == 0 &&
            memcmp(p + 1 + pl, "\" line ", 7) == 0) {
            unsigned long ln = strtoul(p + pl + 8, NULL, 10);
            const char *colon = memchr(p, ':', len);
            if (ln > sc->preamble_lines)
                n += (size_t)sprintf(buf + n, "%s line %lu", sc->template_name,
                                     ln - sc->preamble_lines);
            else
                n += (size_t)sprintf(buf + n,
                                     "line %lu of the variables sgexplore "
                                     "wrote",
                                     ln);
            if (colon) {
                len -= (size_t)(colon - p);
                p = colon;
            } else {
                len = 0;
            }
        }
        memcpy(buf + n, p, len);
        n += len;
        buf[n] = '\0';
    }
    if (n + 1 > outsz)
        snprintf(out, outsz, "...%s", buf + n - (outsz - 4));
    else
        memcpy(out, buf, n + 1);
    free(buf);
}

/* Run `gnuplot SCRIPT` with stdin and stdout on /dev/null (so that no
 * image can ever reach our stdout) and stderr captured; then check that
 * it left a non-empty image. */
static sg_status run_gnuplot(const workdir *w, const script *sc,
                             const sg_plot_options *opt, sg_error *err)
{
    const char *prog = gnuplot_program(opt);
    char *argv[3];
    char *text, msg[400];
    int errpipe[2], outpipe[2], exec_errno = 0, status = 0;
    size_t kept = 0;
    pid_t pid;
    ssize_t r;
    struct stat st;

    argv[0] = (char *)(uintptr_t)prog; /* execv does not write it */
    argv[1] = w->script;
    argv[2] = NULL;
    text = malloc(STDERR_KEEP + 1);
    if (!text)
        return sg_error_set(err, SG_E_NOMEM, -1, "out of memory");
    if (pipe_cloexec(errpipe) != 0) {
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(errno));
    }
    if (pipe_cloexec(outpipe) != 0) {
        int e = errno;
        close(errpipe[0]);
        close(errpipe[1]);
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(e));
    }
    pid = fork();
    if (pid < 0) {
        int e = errno;
        close(errpipe[0]);
        close(errpipe[1]);
        close(outpipe[0]);
        close(outpipe[1]);
        free(text);
        return sg_error_set(err, SG_E_IO, -1, "cannot run gnuplot: %s",
                            strerror(e));
    }
    if (pid == 0) {
        /* The child: only async-signal-safe calls until exec.  A failed
         * exec sends its errno through errpipe, which closes silently
         * on a successful one. */
        int e, null = open("/dev/null", O_RDWR);
        if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
            dup2(outpipe[1], 2) < 0) {
            e = errno;
        } else {
            if (null > 2)
                close(null);
            execvp(prog, argv);
            e = errno;
        }
        if (write(errpipe[1], &e, sizeof e) < 0)
            _exit(126);
        _exit(127);
    }
    close(errpipe[1]);
    close(outpipe[1]);
    do
        r = read(errpipe[0], &exec_errno, sizeof exec_errno);
    while (r < 0 && errno == EINTR);
    close(errpipe[0]);
    if (r != (ssize_t)sizeof exec_errno)
        exec_errno = 0;
    for (;;) {
        char chunk[4096];
        r = read(outpipe[0], chunk, sizeof chunk);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        if (kept < STDERR_KEEP) {
            size_t take = (size_t)r;
            if (take > STDERR_KEEP - kept)
                take = STDERR_KEEP - kept;
            memcpy(text + kept, chunk, take);
            kept += take;
        }
    }
    close(outpipe[0]);
    text[kept] = '\0';
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
        ;
    if (exec_errno) {
        free(text);
        return sg_error_set(err, SG_E_IO, -1,
                            "cannot run gnuplot ('%s': %s); install it "
                            "(Debian/Ubuntu package gnuplot-nox) or set "
                            "SGEXPLORE_GNUPLOT to its path",
                            prog, strerror(exec_errno));
    }
    summarise_stderr(msg, sizeof msg, text, w->script, sc);
    free(text);
    if (WIFSIGNALED(status))
        return sg_error_set(err, SG_E_IO, -1,
                            "gnuplot was stopped by signal %d%s%s",
                            WTERMSIG(status), *msg ? ": " : "", msg);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
        return sg_error_set(err, SG_E_IO, -1, "gnuplot failed: %s",
                            *msg ? msg : "(no message)");
    if (stat(w->image, &st) != 0 || st.st_size == 0)
        return sg_error_set(err, SG_E_IO, -1,
                            "gnuplot wrote no image%s%s (does the template "
                            "set output to outfile?)",
                            *msg ? ": " : "", msg);
    return SG_OK;
}

/* Write the script, run gnuplot, and copy its image to the destination;
 * always removes the temporary directory, and the destination too when
 * it was created here and something failed. */
sg_status sgi_plot_draw(script *sc, workdir *w, dest *d, const char *builtin,
                        const char *builtin_name, const sg_plot_options *opt,
                        sg_error *err)
{
    sg_status st = script_write(sc, w, builtin, builtin_name, opt, err);

    if (!st)
        st = run_gnuplot(w, sc, opt, err);
    if (!st)
        st = dest_finish(d, w->image, err);
    else
        sgi_plot_dest_abort(d);
    script_clear(sc);
    sgi_plot_workdir_remove(w);
    return st;
}
