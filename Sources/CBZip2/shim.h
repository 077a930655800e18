// CBZip2: Debian's libbz2 (libbz2-dev), for bz2-compressed ROS 1 bag chunks. Not API.
#include <bzlib.h>
