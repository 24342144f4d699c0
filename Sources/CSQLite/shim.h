// The system's SQLite, for Persistence on Linux (Apple platforms import SQLite3).
#include <sqlite3.h>
