/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "common/fileio.h"
#include "common/log.h"
#include "core/array.h"
#include "sources/thermal.h"
#include "sources/udev-scan.h"

/* Zone types that describe the CPUs or the SoC around them, as device trees
 * and x86 drivers name them ("cpu0-thermal", "soc_thermal", "x86_pkg_temp",
 * "little-cluster", "bigcore0-thermal"). */
static const char *const auto_words[] = { "cpu", "soc", "x86_pkg_temp", "cluster", "big", "little" };

struct zone_info {
        char type[BL_NAME_MAX];
        char sysname[BL_NAME_MAX];
        char syspath[512];
};

static bool contains_nocase(const char *haystack, const char *needle)
{
        size_t n = strlen(needle);

        for (; *haystack; haystack++)
                if (strncasecmp(haystack, needle, n) == 0)
                        return true;
        return false;
}

static bool auto_selects(const char *type)
{
        for (size_t i = 0; i < sizeof(auto_words) / sizeof(auto_words[0]); i++)
                if (contains_nocase(type, auto_words[i]))
                        return true;
        return false;
}

struct zone_list {
        struct zone_info *zones;
        unsigned n;
        size_t cap;
};

static int collect_zone(struct udev_device *dev, void *userdata)
{
        struct zone_list *l = userdata;
        const char *syspath = udev_device_get_syspath(dev);
        const char *sysname = udev_device_get_sysname(dev);
        const char *type;

        /* cooling_deviceN share the subsystem */
        if (!sysname || strncmp(sysname, "thermal_zone", 12) != 0 ||
            strlen(syspath) >= sizeof(l->zones->syspath))
                return 0;
        if (array_grow((void **)&l->zones, l->n, &l->cap, sizeof(*l->zones), 16) < 0)
                return -ENOMEM;
        type = udev_device_get_sysattr_value(dev, "type");
        snprintf(l->zones[l->n].type, sizeof(l->zones[l->n].type), "%s", type ? type : "");
        snprintf(l->zones[l->n].sysname, sizeof(l->zones[l->n].sysname), "%s", sysname);
        memcpy(l->zones[l->n].syspath, syspath, strlen(syspath) + 1);
        l->n++;
        return 0;
}

/* Every thermal_zoneN the kernel has, in sysfs order. */
static int list_zones(struct zone_info **ret, unsigned *ret_n)
{
        struct zone_list l = { 0 };
        int r;

        r = udev_scan_subsystem("thermal", collect_zone, &l);
        if (r < 0) {
                free(l.zones);
                return r;
        }
        *ret = l.zones;
        *ret_n = l.n;
        return 0;
}

static int read_trip_value(const char *syspath, unsigned n, const char *what, long long *v)
{
        char path[600], buf[32];
        int r;

        snprintf(path, sizeof(path), "%s/trip_point_%u_%s", syspath, n, what);
        r = read_line(path, buf, sizeof(buf));
        if (r == 0)
                r = parse_int(buf, v);
        if (r == 0 && (*v < INT32_MIN || *v > INT32_MAX))
                r = -ERANGE;
        return r;
}

/* trip_point_N_* for N = 0, 1, ... while trip_point_N_type exists (drivers
 * number them without gaps; the bound guards against one that errs on
 * every file). */
static void read_trips(struct thermal_zone *zone, const char *syspath)
{
        zone->ntrips = 0;
        for (unsigned n = 0; n < 4 * BL_TRIPS_MAX && zone->ntrips < BL_TRIPS_MAX; n++) {
                char path[600], type[32];
                long long temp, hyst = 0;
                int r;

                snprintf(path, sizeof(path), "%s/trip_point_%u_type", syspath, n);
                r = read_line(path, type, sizeof(type));
                if (r == -ENOENT)
                        break;
                if (r < 0) {
                        log_debug_errno(r, "thermal: %s (%s): trip %u left out: cannot read its type",
                                        zone->sysname, zone->type, n);
                        continue;
                }
                r = read_trip_value(syspath, n, "temp", &temp);
                if (r < 0) {
                        log_debug_errno(r, "thermal: %s (%s): %s trip %u left out: no temperature",
                                        zone->sysname, zone->type, type, n);
                        continue;
                }
                /* The sysfs documentation says hyst is in °C; kernels give m°C. */
                r = read_trip_value(syspath, n, "hyst", &hyst);
                if (r < 0 && r != -ENOENT)
                        log_debug("thermal: %s (%s): trip %u: hysteresis unreadable (%s), taken as 0",
                                  zone->sysname, zone->type, n, strerror(-r));
                /* A band that would release the trip only below any
                 * temperature a CPU reads (2147483647) is not one a driver
                 * means: believed, the cap it sets would never lift. */
                if (r == 0 && hyst > temp - BL_TEMP_PLAUSIBLE_MIN_MC)
                        log_debug("thermal: %s (%s): trip %u: hysteresis %lld m°C reaches below %d °C, taken as 0",
                                  zone->sysname, zone->type, n, hyst, BL_TEMP_PLAUSIBLE_MIN_MC / 1000);
                if (r < 0 || hyst < 0 || hyst > temp - BL_TEMP_PLAUSIBLE_MIN_MC)
                        hyst = 0;
                zone->trip[zone->ntrips++] = (struct bl_trip){
                        .index = n,
                        .type = trip_type_from_string(type),
                        .temp_mc = (int)temp,
                        .hyst_mc = (int)hyst,
                };
        }
}

static int add_zone(struct thermal_reader *r, const struct zone_info *z, struct bl_diag *diag)
{
        char path[sizeof(z->syspath) + 8];
        int fd;

        if (r->n >= BL_THERMAL_MAX) {
                diag_add(diag, "thermal: more than %u zones selected, %s (%s) is not watched",
                         BL_THERMAL_MAX, z->sysname, z->type);
                return 0;
        }
        snprintf(path, sizeof(path), "%s/temp", z->syspath);
        fd = open_kept(path);
        if (fd < 0) {
                diag_add(diag, "thermal: %s (%s): cannot open %s: %s", z->sysname, z->type, path, strerror(-fd));
                return fd;
        }
        r->zone[r->n] = (struct thermal_zone){ .fd = fd };
        snprintf(r->zone[r->n].type, sizeof(r->zone[r->n].type), "%s", z->type);
        snprintf(r->zone[r->n].sysname, sizeof(r->zone[r->n].sysname), "%s", z->sysname);
        read_trips(&r->zone[r->n], z->syspath);
        r->n++;
        return 0;
}

static void describe_available(const struct zone_info *zones, unsigned n, char *buf, size_t size)
{
        size_t len = 0;

        buf[0] = '\0';
        if (n == 0) {
                snprintf(buf, size, "none");
                return;
        }
        for (unsigned i = 0; i < n && len < size; i++)
                len += (size_t)snprintf(buf + len, size - len, "%s%s", i ? ", " : "", zones[i].type);
}

int thermal_open(struct thermal_reader *r, const struct bl_config *c, struct bl_diag *diag)
{
        _cleanup_free_ struct zone_info *zones = NULL;
        unsigned nzones = 0;
        int ret;

        r->n = 0;
        ret = list_zones(&zones, &nzones);
        if (ret < 0)
                return ret;

        if (c->zones_auto) {
                for (unsigned i = 0; i < nzones; i++) {
                        if (!auto_selects(zones[i].type))
                                continue;
                        /* one unreadable sensor does not take the others down */
                        (void)add_zone(r, &zones[i], diag);
                }
                return 0;
        }

        for (unsigned k = 0; k < c->nzones; k++) {
                bool found = false;

                for (unsigned i = 0; i < nzones; i++) {
                        if (strcmp(zones[i].type, c->zones[k]) != 0 &&
                            strcmp(zones[i].sysname, c->zones[k]) != 0)
                                continue;
                        found = true;
                        ret = add_zone(r, &zones[i], diag);
                        if (ret < 0)
                                goto fail;
                }
                if (!found) {
                        char avail[BL_DIAG_LEN];

                        describe_available(zones, nzones, avail, sizeof(avail));
                        diag_add(diag, "thermal: zone \"%s\" not found; available zone types: %s",
                                 c->zones[k], avail);
                        ret = -ENOENT;
                        goto fail;
                }
        }
        return 0;
fail:
        thermal_close(r);
        return ret;
}

unsigned thermal_trip_zones(const struct thermal_reader *r, struct bl_trip_zone *zones)
{
        for (unsigned i = 0; i < r->n; i++)
                zones[i] = (struct bl_trip_zone){
                        .sysname = r->zone[i].sysname,
                        .type = r->zone[i].type,
                        .trips = r->zone[i].trip,
                        .ntrips = r->zone[i].ntrips,
                };
        return r->n;
}

int thermal_read(struct thermal_reader *r, int *max_mc)
{
        bool any = false;
        int ret = -ENODATA, hottest = 0;

        for (unsigned i = 0; i < r->n; i++) {
                struct thermal_zone *z = &r->zone[i];
                char buf[32];
                long long v = 0;
                int k;

                /* Some sensors answer EIO, ENODATA or EAGAIN now and then:
                 * skip them for this read only. */
                k = pread_text(z->fd, buf, sizeof(buf), NULL);
                if (k == 0)
                        k = parse_int(buf, &v);
                /* Said like an unreadable zone (sampler.c), not believed. */
                if (k == 0 && (v < BL_TEMP_PLAUSIBLE_MIN_MC || v > BL_TEMP_PLAUSIBLE_MAX_MC))
                        k = -EDOM;
                z->error = k;
                if (k < 0) {
                        ret = k;
                        continue;
                }
                z->last_mc = (int)v;
                if (!any || z->last_mc > hottest)
                        hottest = z->last_mc;
                any = true;
        }
        if (!any)
                return ret;
        *max_mc = hottest;
        return 0;
}

void thermal_close(struct thermal_reader *r)
{
        for (unsigned i = 0; i < r->n; i++)
                if (r->zone[i].fd >= 0)
                        close(r->zone[i].fd);
        r->n = 0;
}
