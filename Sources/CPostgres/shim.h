// libpq, PostgreSQL's C client library (Debian: libpq-dev, installed on a fresh machine of this kind).
#include <postgresql/libpq-fe.h>
