/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hotplug sends no udev events by itself. umockdev_testbed_uevent() cannot
 * send them either: it looks the device up through libudev in the calling
 * process, which is not under the preload and so cannot see the testbed's
 * devices. fakeboard_uevent() builds the message itself.
 */

#include <errno.h>
#include <limits.h>
#include <glob.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "fakeboard/board-internal.h"

/* The header libudev puts before a message's KEY=value strings. */
#define UDEV_MONITOR_MAGIC 0xfeedcafeU
struct udev_message_header {
        char prefix[8];                 /* "libudev" */
        uint32_t magic;                 /* network order, like the hashes */
        uint32_t header_size;
        uint32_t properties_off;
        uint32_t properties_len;
        uint32_t filter_subsystem_hash;
        uint32_t filter_devtype_hash;
        uint32_t filter_tag_bloom_hi;
        uint32_t filter_tag_bloom_lo;
};

/* MurmurHash2, seed 0: the subsystem hash the receiver's socket filter tests. */
static uint32_t udev_string_hash(const char *str)
{
        const uint32_t m = 0x5bd1e995;
        size_t len = strlen(str);
        const unsigned char *p = (const unsigned char *)str;
        uint32_t h = (uint32_t)len;

        for (; len >= 4; len -= 4, p += 4) {
                uint32_t k;

                memcpy(&k, p, sizeof(k));
                k *= m;
                k ^= k >> 24;
                k *= m;
                h = h * m ^ k;
        }
        switch (len) {
        case 3:
                h ^= (uint32_t)p[2] << 16;
                /* fall through */
        case 2:
                h ^= (uint32_t)p[1] << 8;
                /* fall through */
        case 1:
                h ^= p[0];
                h *= m;
        }
        h ^= h >> 13;
        h *= m;
        h ^= h >> 15;
        return h;
}

int fakeboard_uevent(struct fakeboard *fb, const char *sysfs_path, const char *action)
{
        char link[PATH_MAX], target[PATH_MAX], props[1024];
        struct udev_message_header hdr = { .prefix = "libudev" };
        struct iovec iov[2];
        const char *subsystem;
        glob_t sockets;
        ssize_t n;
        int len, r, sent = 0;

        if (strncmp(sysfs_path, "/sys/", 5) != 0)
                return -EINVAL;
        r = fb_board_path(fb, link, sizeof(link), "%s/subsystem", sysfs_path);
        if (r < 0)
                return r;
        n = readlink(link, target, sizeof(target) - 1);
        if (n < 0 && errno == ENOENT && strcmp(action, "remove") == 0) {
                /* Gone already: the subsystem of the devices here (cpu,
                 * thermal) is the name of their parent directory. */
                const char *end = strrchr(sysfs_path, '/'), *start = end;

                while (start > sysfs_path && start[-1] != '/')
                        start--;
                n = end - start;
                if (n <= 0 || (size_t)n >= sizeof(target))
                        return -EINVAL;
                memcpy(target, start, (size_t)n);
        } else if (n < 0) {
                return -errno;
        }
        target[n] = '\0';
        subsystem = strrchr(target, '/') ? strrchr(target, '/') + 1 : target;
        len = snprintf(props, sizeof(props), "ACTION=%s%cDEVPATH=%s%cSUBSYSTEM=%s%cSEQNUM=%llu", action, 0,
                       sysfs_path + 4, 0, subsystem, 0, ++fb->uevent_seqnum);
        if (len < 0 || (size_t)len >= sizeof(props))
                return -ENAMETOOLONG;
        hdr.magic = htonl(UDEV_MONITOR_MAGIC);
        hdr.header_size = sizeof(hdr);
        hdr.properties_off = sizeof(hdr);
        hdr.properties_len = (uint32_t)len + 1;
        hdr.filter_subsystem_hash = htonl(udev_string_hash(subsystem));
        iov[0] = (struct iovec){ .iov_base = &hdr, .iov_len = sizeof(hdr) };
        iov[1] = (struct iovec){ .iov_base = props, .iov_len = (size_t)len + 1 };

        /* The preload binds each monitor of a process under it to
         * $UMOCKDEV_DIR/eventN (N its descriptor). */
        r = snprintf(link, sizeof(link), "%s/event[0-9]*", fb->root);
        if (r < 0 || (size_t)r >= sizeof(link))
                return -ENAMETOOLONG;
        r = 0;
        if (glob(link, 0, NULL, &sockets) != 0)
                return 0;
        for (size_t i = 0; i < sockets.gl_pathc; i++) {
                struct sockaddr_un addr = { .sun_family = AF_UNIX };
                struct msghdr msg = {
                        .msg_name = &addr, .msg_namelen = sizeof(addr), .msg_iov = iov, .msg_iovlen = 2,
                };
                int fd;

                if (strlen(sockets.gl_pathv[i]) >= sizeof(addr.sun_path))
                        continue;
                strcpy(addr.sun_path, sockets.gl_pathv[i]);
                fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
                if (fd < 0) {
                        r = -errno;
                        break;
                }
                /* A monitor that closed leaves its socket file: not a listener. */
                if (sendmsg(fd, &msg, 0) >= 0)
                        sent++;
                close(fd);
        }
        globfree(&sockets);
        return r < 0 ? r : sent;
}
