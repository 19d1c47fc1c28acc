// Linux calls Swift's Glibc module does not import: epoll, eventfd, accept4, the CPU affinity mask and malloc_trim.
// Declarations and struct layouts come from the system headers (no hand-laid structs); small wrappers
// cover what Swift cannot call (macros) or should not lay out (the packed epoll_event on x86_64).
//
// No _GNU_SOURCE here: Swift's Glibc module is built without it, and a header seen both ways would define
// fd_set and friends differently in two modules. The two GNU functions are declared below with glibc's
// prototypes instead (cpu_set_t itself is declared by <sched.h> in every mode).
#include <malloc.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>

/// EPOLLIN, EPOLLOUT, EPOLLERR, EPOLLHUP.
static const uint32_t prelude_epoll_readable = EPOLLIN;
static const uint32_t prelude_epoll_writable = EPOLLOUT;
static const uint32_t prelude_epoll_error = EPOLLERR;
static const uint32_t prelude_epoll_hangup = EPOLLHUP;

/// epoll_create1(EPOLL_CLOEXEC).
static inline int prelude_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC).
static inline int prelude_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// epoll_ctl with the descriptor itself as the event's data. `operation` is EPOLL_CTL_ADD/MOD/DEL.
static inline int prelude_epoll_ctl(int epfd, int operation, int fd, uint32_t events) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = 0;
    event.data.fd = fd;
    return epoll_ctl(epfd, operation, fd, &event);
}

static const int prelude_epoll_ctl_add = EPOLL_CTL_ADD;
static const int prelude_epoll_ctl_mod = EPOLL_CTL_MOD;
static const int prelude_epoll_ctl_del = EPOLL_CTL_DEL;

/// A buffer of `count` epoll events (free with prelude_epoll_events_free).
static inline struct epoll_event *prelude_epoll_events_allocate(int count) {
    return (struct epoll_event *)calloc((size_t)count, sizeof(struct epoll_event));
}

static inline void prelude_epoll_events_free(struct epoll_event *events) { free(events); }

/// epoll_wait into `events`.
static inline int prelude_epoll_wait(int epfd, struct epoll_event *events, int capacity, int timeout) {
    return epoll_wait(epfd, events, capacity, timeout);
}

/// The flags of event `index`.
static inline uint32_t prelude_epoll_event_flags(const struct epoll_event *events, int index) {
    return events[index].events;
}

/// The descriptor of event `index` (as stored by prelude_epoll_ctl).
static inline int prelude_epoll_event_fd(const struct epoll_event *events, int index) {
    return events[index].data.fd;
}

extern int accept4(int fd, struct sockaddr *address, socklen_t *length, int flags);
extern int sched_getaffinity(pid_t pid, size_t size, cpu_set_t *mask);

/// The type argument of socket(2) for a non-blocking, close-on-exec TCP socket. Glibc's SOCK_CLOEXEC is not
/// visible to Swift once this header brought <sys/socket.h> into a second module, so the engine takes it here.
static const int prelude_stream_socket_type = SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC;

/// accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC): the accepted socket is non-blocking and
/// close-on-exec from the start.
static inline int prelude_accept_nonblocking(int fd, struct sockaddr *address, socklen_t *length) {
    return accept4(fd, address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

/// The number of CPUs in this process's affinity mask, or -1 when it cannot be read.
static inline int prelude_allowed_cpu_count(void) {
    cpu_set_t set;
    unsigned char *bytes = (unsigned char *)&set;
    for (size_t i = 0; i < sizeof(set); i++) bytes[i] = 0;
    if (sched_getaffinity(0, sizeof(set), &set) != 0) return -1;
    int count = 0;
    for (size_t i = 0; i < sizeof(set); i++) count += __builtin_popcount(bytes[i]);
    return count;
}

/// malloc_trim(0): returns the free memory of every malloc arena to the kernel (free pages inside the heap too,
/// not only its top). Returns 1 when some memory was released.
static inline int prelude_malloc_trim(void) { return malloc_trim(0); }
