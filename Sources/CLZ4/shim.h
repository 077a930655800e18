// CLZ4: Debian's liblz4 (liblz4-dev), for lz4-compressed ROS 1 bag chunks (LZ4 frames). Not API.
#include <lz4frame.h>
