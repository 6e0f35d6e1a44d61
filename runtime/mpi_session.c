/* mpi_session.c: MPI 4.0's sessions (MPI 4.0 chapter 11.3). A session makes MPI
 * usable as MPI_Init does (beside it, before it or without it): its process sets are
 * "mpi://WORLD" (every DSP) and "mpi://SELF", a group is made from one, and a
 * communicator from a group with no parent (MPI_Comm_create_from_group: its members
 * agree on its context in a context of their own, with a tag made from the string
 * tag). A DSP's MPI ends at MPI_Finalize: a session is no use after it. Part of the
 * API layer (mpi_int.h). */
#include "mpi_int.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

/* the context in which the members of a group agree on the context of the
 * communicator MPI_Comm_create_from_group makes (below MPI_COMM_SELF's, above those
 * of every other communicator) */
enum { FROM_GROUP_CTX = 0x7ffffff2 };

static const char *const psets[] = {"mpi://WORLD", "mpi://SELF"};
enum { NPSETS = 2 };

/* the thread levels by name (the info key "thread_level") */
static const char *const levels[] = {"MPI_THREAD_SINGLE", "MPI_THREAD_FUNNELED",
                                     "MPI_THREAD_SERIALIZED", "MPI_THREAD_MULTIPLE"};

static Session *
session_get(MpiState *s, MPI_Session h)
{
    Session *ss = tab_at(&s->sessions, h);
    return h > 0 && ss && ss->used ? ss : NULL;
}

/* the start of a call on a session: s and its session ss, or the error (raised on
 * MPI_COMM_SELF's handler when the session is not one) */
#define SESSION(call, h)                                                                 \
    MpiState *s = mpi_enter(call);                                                       \
    if (!s)                                                                              \
        return MPI_ERR_OTHER;                                                            \
    Session *ss = session_get(s, h);                                                     \
    if (!ss)                                                                             \
        return mpi_err(MPI_COMM_SELF, MPI_ERR_SESSION);

/* the index of process set name (in any case, as MPICH has it: "mpi://world"), or -1 */
static int
pset_find(const char *name)
{
    for (int i = 0; name && i < NPSETS; i++)
        if (strcasecmp(name, psets[i]) == 0)
            return i;
    return -1;
}

int
MPI_Session_init(MPI_Info info, MPI_Errhandler eh, MPI_Session *session)
{
    MpiState *s = mpi_enter_any("MPI_Session_init");
    if (!s)
        return MPI_ERR_OTHER;
    if (!session)
        return mpi_err_eh(eh, MPI_SESSION_NULL, MPI_ERR_ARG);
    *session = MPI_SESSION_NULL;
    if (!errh_valid_for(s, eh, 1))
        return mpi_err(MPI_COMM_SELF, MPI_ERR_ARG);
    if (s->finalized || !tr_active()) /* the DSP's MPI is over */
        return mpi_err_eh(eh, MPI_SESSION_NULL, MPI_ERR_OTHER);
    /* the thread level asked for, as for MPI_Init_thread: a DSP is one thread of
     * control, MPI_THREAD_FUNNELED at most */
    int level = MPI_THREAD_SINGLE, flag = 0;
    char want[64] = "";
    if (info != MPI_INFO_NULL) {
        int e = MPI_Info_get(info, "thread_level", (int)sizeof want - 1, want, &flag);
        if (e)
            return mpi_err_eh(eh, MPI_SESSION_NULL, e);
    }
    for (int i = 0; flag && i < 4; i++)
        if (strcmp(want, levels[i]) == 0)
            level = i < MPI_THREAD_FUNNELED ? i : MPI_THREAD_FUNNELED;
    MPI_Info copy;
    int e = info != MPI_INFO_NULL ? MPI_Info_dup(info, &copy) : MPI_Info_create(&copy);
    if (e)
        return mpi_err_eh(eh, MPI_SESSION_NULL, e);
    MPI_Info_set(copy, "thread_level", levels[level]);
    int h = tab_new(&s->sessions, 1, sizeof(Session));
    Session *ss = tab_at(&s->sessions, h);
    ss->used = 1;
    ss->eh = eh;
    ss->info = copy;
    s->nsessions++;
    *session = h;
    return MPI_SUCCESS;
}

int
MPI_Session_finalize(MPI_Session *session)
{
    if (!session) {
        ENTER("MPI_Session_finalize");
        return mpi_err(MPI_COMM_SELF, MPI_ERR_ARG);
    }
    SESSION("MPI_Session_finalize", *session);
    MPI_Info_free(&ss->info);
    tab_free(&s->sessions, *session);
    s->nsessions--;
    *session = MPI_SESSION_NULL;
    return MPI_SUCCESS;
}

int
MPI_Session_get_info(MPI_Session session, MPI_Info *info)
{
    SESSION("MPI_Session_get_info", session);
    if (!info)
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    int e = MPI_Info_dup(ss->info, info);
    return e ? mpi_err_eh(ss->eh, session, e) : MPI_SUCCESS;
}

int
MPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int *npsets)
{
    SESSION("MPI_Session_get_num_psets", session);
    (void)info; /* no key of it narrows the sets */
    if (!npsets)
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    *npsets = NPSETS;
    return MPI_SUCCESS;
}

/* the name of set n: *len 0 asks for its length (with the terminating null); else
 * at most *len - 1 characters and a null, and *len is set to the whole length */
int
MPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int *len, char *name)
{
    SESSION("MPI_Session_get_nth_pset", session);
    (void)info;
    if (n < 0 || n >= NPSETS || !len || *len < 0 || (*len > 0 && !name))
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    int need = (int)strlen(psets[n]) + 1;
    if (*len > 0)
        snprintf(name, (size_t)*len, "%s", psets[n]);
    *len = need;
    return MPI_SUCCESS;
}

int
MPI_Session_get_pset_info(MPI_Session session, const char *name, MPI_Info *info)
{
    SESSION("MPI_Session_get_pset_info", session);
    int p = pset_find(name);
    if (p < 0 || !info)
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    char size[16];
    snprintf(size, sizeof size, "%d", p == 0 ? tr_size() : 1);
    int e = MPI_Info_create(info);
    if (!e)
        e = MPI_Info_set(*info, "mpi_size", size);
    return e ? mpi_err_eh(ss->eh, session, e) : MPI_SUCCESS;
}

int
MPI_Group_from_session_pset(MPI_Session session, const char *pset, MPI_Group *group)
{
    SESSION("MPI_Group_from_session_pset", session);
    int p = pset_find(pset);
    if (p < 0 || !group)
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    int e = MPI_Comm_group(p == 0 ? MPI_COMM_WORLD : MPI_COMM_SELF, group);
    return e ? mpi_err_eh(ss->eh, session, e) : MPI_SUCCESS;
}

/* a string tag's number: FNV-1a, folded into the tags of comm_of_group */
static int
tag_of(const char *tag)
{
    unsigned h = 2166136261u;
    for (const unsigned char *p = (const unsigned char *)tag; *p; p++)
        h = (h ^ *p) * 16777619u;
    return (int)(h % ((unsigned)(MPIRIO_TAG_UB - T_GROUP) + 1u));
}

int
MPI_Comm_create_from_group(MPI_Group group, const char *tag, MPI_Info info,
                           MPI_Errhandler eh, MPI_Comm *newcomm)
{
    ENTER("MPI_Comm_create_from_group");
    (void)info;
    if (eh == MPI_ERRHANDLER_NULL)
        eh = MPI_ERRORS_ARE_FATAL;
    if (!errh_valid_for(s, eh, 0))
        return mpi_err(MPI_COMM_SELF, MPI_ERR_ARG);
    if (!tag || !newcomm)
        return mpi_err_eh(eh, MPI_COMM_NULL, MPI_ERR_ARG);
    int e = comm_of_group(s, group, FROM_GROUP_CTX, tag_of(tag), eh, newcomm);
    return e ? mpi_err_eh(eh, MPI_COMM_NULL, e) : MPI_SUCCESS;
}

/* ---- error handlers ---- */

int
MPI_Session_create_errhandler(MPI_Session_errhandler_function *fn, MPI_Errhandler *eh)
{
    MpiState *s = mpi_enter_any("MPI_Session_create_errhandler");
    if (!s)
        return MPI_ERR_OTHER;
    if (!fn || !eh)
        return mpi_err(MPI_COMM_SELF, MPI_ERR_ARG);
    int i = tab_new(&s->errhs, 4, sizeof(Errh));
    Errh *h = tab_at(&s->errhs, i);
    h->used = 1;
    h->fn = fn;
    h->session = 1;
    *eh = i;
    return MPI_SUCCESS;
}

int
MPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler eh)
{
    SESSION("MPI_Session_set_errhandler", session);
    if (!errh_valid_for(s, eh, 1))
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    ss->eh = eh;
    return MPI_SUCCESS;
}

int
MPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler *eh)
{
    SESSION("MPI_Session_get_errhandler", session);
    if (!eh)
        return mpi_err_eh(ss->eh, session, MPI_ERR_ARG);
    *eh = ss->eh;
    return MPI_SUCCESS;
}

int
MPI_Session_call_errhandler(MPI_Session session, int code)
{
    SESSION("MPI_Session_call_errhandler", session);
    mpi_err_eh(ss->eh, session, code);
    return MPI_SUCCESS;
}
