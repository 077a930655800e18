// CZstd: Debian's libzstd (libzstd-dev), for zstd-compressed MCAP chunks (ROS 2 bags). Not API.
#include <zstd.h>
