/* The bytes of a host copy operand (spec `host_extent`): a memcpy or memcpy_3d operand that is
 * host memory must be mapped from the first to the last byte the copy touches, not only at its
 * address, or the launch would fault in the driver's staging copy. Checked at add, at both
 * update levels, and again when only the size or the shape changes; a refused call leaves the
 * node and the executable as they were. On the fake driver, whose launch copies host operands
 * with memcpy as the driver's pageable path would, and on a GPU. (Found by the black-box tests:
 * before, only the address itself was probed; a read-only destination and a hole between the
 * ends were found missing afterwards.) */
#define _DEFAULT_SOURCE 1 /* MAP_ANONYMOUS */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <errno.h>

#include <cmocka.h>

#include "cgn_test_env.h"
#include "cgn_test_fixture.h"

/* A page of mapped host memory followed by an unmapped one: *end is the first unmapped byte. */
typedef struct edge {
    unsigned char *mapping;
    unsigned char *end;
    size_t page;
} edge;

static edge edge_open(void) {
    edge e;
    e.page = (size_t)sysconf(_SC_PAGESIZE);
    e.mapping = mmap(NULL, 2 * e.page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(e.mapping != MAP_FAILED);
    assert_int_equal(munmap(e.mapping + e.page, e.page), 0);
    e.end = e.mapping + e.page;
    memset(e.mapping, 0x5a, e.page);
    return e;
}

static void edge_close(edge *e) {
    assert_int_equal(munmap(e->mapping, e->page), 0);
}

/* `back` bytes before the end of the mapping, as a copy operand. */
static CUdeviceptr before_end(const edge *e, size_t back) {
    return (CUdeviceptr)(uintptr_t)(e->end - back);
}

static cgn_node *add_memcpy(cgn_graph *g, CUdeviceptr dst, CUdeviceptr src, size_t size) {
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = dst;
    d.src = src;
    d.size = size;
    cgn_node *n = NULL;
    OK(cgn_graph_add_memcpy(g, NULL, 0, &d, &n));
    return n;
}

static void assert_memcpy_is(cgn_node *n, CUdeviceptr dst, CUdeviceptr src, size_t size) {
    cgn_memcpy_desc got;
    OK(cgn_memcpy_node_get(n, &got));
    assert_int_equal(got.dst, dst);
    assert_int_equal(got.src, src);
    assert_int_equal(got.size, size);
}

/* An operand whose last byte is the mapping's last is accepted, one byte more is refused, at
 * add, for either operand, with a message naming the operand and the byte. */
static void test_add_checks_the_last_byte(void **state) {
    cgn_test_env *env = *state;
    edge e = edge_open();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    add_memcpy(g, env->buf[0], before_end(&e, 64), 64); /* exactly to the end */
    add_memcpy(g, before_end(&e, 64), env->buf[0], 64);

    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[0];
    d.src = before_end(&e, 8);
    d.size = 9;
    cgn_node *n = NULL;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_null(n);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_graph_add_memcpy: src 0x%llx is host memory, but byte 8 of the copy (0x%llx) "
             "is not mapped",
             (unsigned long long)d.src, (unsigned long long)(uintptr_t)e.end);
    cgn_test_assert_message(want);

    d.src = env->buf[1];
    d.dst = before_end(&e, 8);
    d.size = 64;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "dst 0x"));
    assert_non_null(strstr(cgn_last_error(), "byte 63 of the copy"));
    assert_int_equal(cgn_test_count_nodes(g), 2);
    OK(cgn_graph_destroy(g));
    edge_close(&e);
}

/* A definition-level update that grows only the size past the mapping is refused, and the
 * node keeps its version; so is a new operand too short for the size it keeps. */
static void test_update_of_size_alone_rechecks(void **state) {
    cgn_test_env *env = *state;
    edge e = edge_open();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUdeviceptr src = before_end(&e, 32);
    cgn_node *n = add_memcpy(g, env->buf[0], src, 32);

    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_size(&u, 33);
    assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "cgn_memcpy_node_update: src 0x"));
    assert_non_null(strstr(cgn_last_error(), "byte 32 of the copy"));
    assert_memcpy_is(n, env->buf[0], src, 32);

    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_size(&u, 16); /* shrinking is fine */
    OK(cgn_memcpy_node_update(n, &u));
    assert_memcpy_is(n, env->buf[0], src, 16);

    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_src(&u, before_end(&e, 8), NULL); /* 16 bytes from 8 before the end */
    assert_int_equal(cgn_memcpy_node_update(n, &u), CGN_ERROR_INVALID_VALUE);
    assert_memcpy_is(n, env->buf[0], src, 16);

    /* A device operand is not host memory: its size is the driver's business, as before. */
    cgn_node *dev = add_memcpy(g, env->buf[0], env->buf[1], 8);
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_size(&u, 16);
    OK(cgn_memcpy_node_update(dev, &u));
    assert_memcpy_is(dev, env->buf[0], env->buf[1], 16);
    OK(cgn_graph_destroy(g));
    edge_close(&e);
}

/* At executable level: the executable's copy is checked against its own operands, and a
 * refused update leaves it (and the definition) as they were; the launch still copies the old
 * bytes. */
static void test_exec_update_rechecks_its_copy(void **state) {
    cgn_test_env *env = *state;
    edge e = edge_open();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUdeviceptr host = cgn_test_host(env, 0);
    cgn_node *n = add_memcpy(g, env->buf[0], host, 8);
    cgn_exec *x;
    OK(cgn_graph_instantiate(g, &x));

    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_src(&u, before_end(&e, 4), NULL);
    assert_int_equal(cgn_memcpy_exec_update(x, n, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "cgn_memcpy_exec_update: src 0x"));
    cgn_memcpy_desc got;
    OK(cgn_memcpy_exec_get(x, n, &got));
    assert_int_equal(got.src, host);
    assert_int_equal(got.size, 8);

    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_src(&u, before_end(&e, 8), NULL); /* fits the 8 bytes */
    OK(cgn_memcpy_exec_update(x, n, &u));
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_size(&u, 9);
    assert_int_equal(cgn_memcpy_exec_update(x, n, &u), CGN_ERROR_INVALID_VALUE);
    OK(cgn_memcpy_exec_get(x, n, &got));
    assert_int_equal(got.src, before_end(&e, 8));
    assert_int_equal(got.size, 8);
    OK(cgn_exec_launch(x, NULL)); /* copies the 8 mapped bytes */
    OK(cgn_exec_destroy(x));
    assert_memcpy_is(n, env->buf[0], host, 8);
    OK(cgn_graph_destroy(g));
    edge_close(&e);
}

/* A size that runs past the end of the address space is out of range, not probed. */
static void test_size_beyond_the_address_space(void **state) {
    cgn_test_env *env = *state;
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[0];
    d.src = cgn_test_host(env, 1);
    d.size = SIZE_MAX;
    cgn_node *n = NULL;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_OUT_OF_RANGE);
    assert_non_null(strstr(cgn_last_error(), "beyond the end of the address space"));
    assert_int_equal(cgn_test_count_nodes(g), 0);
    OK(cgn_graph_destroy(g));
}

/* memcpy_3d: the last byte is that of the last row of the last slice, the first that of the
 * first row at the operand's offsets; a change of the shape alone is checked again. */
static void test_memcpy_3d_rows_and_offsets(void **state) {
    cgn_test_env *env = *state;
    edge e = edge_open();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    cgn_memcpy_3d_desc d = CGN_MEMCPY_3D_DESC_INIT;
    d.dst = env->buf[0];
    d.dst_pitch = 16;
    d.src = before_end(&e, 64 + 8); /* rows at 0 and 64: the second ends at the last byte */
    d.src_pitch = 64;
    d.width_in_bytes = 8;
    d.height = 2;
    cgn_node *n = NULL;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d, &n));

    cgn_memcpy_3d_update u = CGN_MEMCPY_3D_UPDATE_INIT;
    cgn_memcpy_3d_update_set_height(&u, 3); /* a third row, past the mapping */
    assert_int_equal(cgn_memcpy_3d_node_update(n, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "byte 135 of the copy"));
    cgn_memcpy_3d_desc got;
    OK(cgn_memcpy_3d_node_get(n, &got));
    assert_int_equal(got.height, 2);

    /* The first row itself past the mapping: an offset of one row from an address that is
     * mapped, one row of 8 bytes. */
    cgn_memcpy_3d_desc one = d;
    one.src = before_end(&e, 8);
    one.src_pitch = 64;
    one.src_y = 1;
    one.height = 1;
    cgn_node *m = NULL;
    assert_int_equal(cgn_graph_add_memcpy_3d(g, NULL, 0, &one, &m), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "byte 64 of the copy"));
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
    edge_close(&e);
}

/* An update loop that moves a host copy's size within what was already checked takes no new
 * probes (a thread-local cache; not observable here but through time), and a size past the
 * mapping is refused all the same in the middle of such a loop, at both levels. */
static void test_size_loop_within_a_checked_extent(void **state) {
    cgn_test_env *env = *state;
    edge e = edge_open();
    cgn_graph *g;
    OK(cgn_graph_create(&g));
    CUdeviceptr src = before_end(&e, 64);
    cgn_node *n = add_memcpy(g, env->buf[0], src, 64);
    cgn_exec *x;
    OK(cgn_graph_instantiate(g, &x));
    cgn_memcpy_update u[3] = {CGN_MEMCPY_UPDATE_INIT, CGN_MEMCPY_UPDATE_INIT,
                              CGN_MEMCPY_UPDATE_INIT};
    cgn_memcpy_update_set_size(&u[0], 32);
    cgn_memcpy_update_set_size(&u[1], 64);
    cgn_memcpy_update_set_size(&u[2], 65);
    for (int i = 0; i < 100; i++) {
        OK(cgn_memcpy_node_update(n, &u[i & 1]));
        OK(cgn_memcpy_exec_update(x, n, &u[(i + 1) & 1]));
        if (i % 25 == 24) {
            assert_int_equal(cgn_memcpy_node_update(n, &u[2]), CGN_ERROR_INVALID_VALUE);
            assert_int_equal(cgn_memcpy_exec_update(x, n, &u[2]), CGN_ERROR_INVALID_VALUE);
        }
    }
    assert_memcpy_is(n, env->buf[0], src, 64);
    cgn_memcpy_desc got;
    OK(cgn_memcpy_exec_get(x, n, &got));
    assert_int_equal(got.size, 32);
    OK(cgn_exec_destroy(x));
    OK(cgn_graph_destroy(g));
    edge_close(&e);
}

/* `pages` pages of fresh host memory, filled; the caller changes protections or unmaps some. */
static unsigned char *pages_open(size_t pages, size_t *page_out) {
    size_t page = (size_t)sysconf(_SC_PAGESIZE);
    unsigned char *m =
        mmap(NULL, pages * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    assert_true(m != MAP_FAILED);
    memset(m, 0x3c, pages * page);
    *page_out = page;
    return m;
}

/* A destination must be writable: a copy into read-only host memory (a string literal, a
 * PROT_READ mapping) would crash the process in the driver's staging copy at launch. Refused at
 * add and at both update levels, for either end of the copy, naming the byte; the same memory
 * is fine as a source; errno is the caller's, before and after. */
static void test_read_only_destination_is_refused(void **state) {
    cgn_test_env *env = *state;
    size_t page;
    unsigned char *m = pages_open(2, &page); /* page 0 writable, page 1 read-only */
    assert_int_equal(mprotect(m + page, page, PROT_READ), 0);
    const CUdeviceptr rw = (CUdeviceptr)(uintptr_t)m;
    const CUdeviceptr ro = (CUdeviceptr)(uintptr_t)(m + page);
    cgn_graph *g;
    OK(cgn_graph_create(&g));

    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = ro;
    d.src = env->buf[0];
    d.size = 8;
    cgn_node *n = NULL;
    errno = 4321;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(errno, 4321);
    assert_null(n);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_graph_add_memcpy: dst 0x%llx is host memory the copy writes, but byte 0 of the "
             "copy (0x%llx) is read-only",
             (unsigned long long)ro, (unsigned long long)ro);
    cgn_test_assert_message(want);

    /* The last byte only: 8 writable bytes, then 8 read-only ones. */
    d.dst = ro - 8;
    d.size = 16;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "byte 15 of the copy"));
    assert_non_null(strstr(cgn_last_error(), "read-only"));

    /* Read-only memory as a source is what a copy from a constant table does. */
    cgn_node *from_ro = add_memcpy(g, env->buf[0], ro, 16);
    errno = 1234;
    cgn_node *to_rw = add_memcpy(g, rw, env->buf[1], 8);
    assert_int_equal(errno, 1234);

    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&u, ro, NULL);
    assert_int_equal(cgn_memcpy_node_update(to_rw, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "cgn_memcpy_node_update: dst 0x"));
    assert_memcpy_is(to_rw, rw, env->buf[1], 8);
    /* The source checked before as read-only memory does not pass for a destination. */
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_dst(&u, ro, NULL);
    cgn_memcpy_update_set_src(&u, env->buf[0], NULL);
    assert_int_equal(cgn_memcpy_node_update(from_ro, &u), CGN_ERROR_INVALID_VALUE);
    assert_memcpy_is(from_ro, env->buf[0], ro, 16);

    /* Growing a writable destination into the read-only page, at executable level. */
    cgn_exec *x;
    OK(cgn_graph_instantiate(g, &x));
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_size(&u, page + 1);
    assert_int_equal(cgn_memcpy_exec_update(x, to_rw, &u), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "cgn_memcpy_exec_update: dst 0x"));
    assert_non_null(strstr(cgn_last_error(), "read-only"));
    cgn_memcpy_desc got;
    OK(cgn_memcpy_exec_get(x, to_rw, &got));
    assert_int_equal(got.size, 8);
    cgn_memcpy_update_reset(&u);
    cgn_memcpy_update_set_size(&u, CGN_TEST_BUF_SIZE); /* within the page and the buffer */
    OK(cgn_memcpy_exec_update(x, to_rw, &u));
    OK(cgn_exec_launch(x, NULL));
    OK(cgn_exec_destroy(x));

    /* memcpy_3d: the last row of the destination lies in the read-only page. */
    cgn_memcpy_3d_desc d3 = CGN_MEMCPY_3D_DESC_INIT;
    d3.dst = ro - 64;
    d3.dst_pitch = 64;
    d3.src = env->buf[0];
    d3.src_pitch = 16;
    d3.width_in_bytes = 8;
    d3.height = 2;
    cgn_node *n3 = NULL;
    assert_int_equal(cgn_graph_add_memcpy_3d(g, NULL, 0, &d3, &n3), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "byte 71 of the copy"));
    d3.height = 1;
    OK(cgn_graph_add_memcpy_3d(g, NULL, 0, &d3, &n3));
    assert_int_equal(cgn_test_count_nodes(g), 3);
    OK(cgn_graph_destroy(g));
    assert_int_equal(munmap(m, 2 * page), 0);
}

/* Between the two ends every page must be mapped: a copy over a hole is refused at add and at
 * both update levels, for a source and for a destination; the same copy without the hole is
 * accepted. */
static void test_hole_inside_the_copy_is_refused(void **state) {
    cgn_test_env *env = *state;
    size_t page;
    unsigned char *m = pages_open(4, &page);
    unsigned char *whole = pages_open(4, &page);
    unsigned char *from = pages_open(4, &page);
    assert_int_equal(munmap(m + page, 2 * page), 0); /* pages 1 and 2: a hole */
    const CUdeviceptr holed = (CUdeviceptr)(uintptr_t)m;
    const size_t span = 4 * page;
    cgn_graph *g;
    OK(cgn_graph_create(&g));

    cgn_memcpy_desc d = CGN_MEMCPY_DESC_INIT;
    d.dst = env->buf[0];
    d.src = holed;
    d.size = span;
    cgn_node *n = NULL;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    char want[256];
    snprintf(want, sizeof want,
             "cgn_graph_add_memcpy: src 0x%llx is host memory, but bytes 0 to %zu of the copy "
             "are not all mapped",
             (unsigned long long)holed, span - 1);
    cgn_test_assert_message(want);
    d.src = env->buf[0];
    d.dst = holed;
    assert_int_equal(cgn_graph_add_memcpy(g, NULL, 0, &d, &n), CGN_ERROR_INVALID_VALUE);
    assert_non_null(strstr(cgn_last_error(), "dst 0x"));
    assert_non_null(strstr(cgn_last_error(), "not all mapped"));
    assert_null(n);

    /* Mapped throughout: accepted; then pointed at the holed range, refused at both levels. */
    const CUdeviceptr src = (CUdeviceptr)(uintptr_t)from; /* host to host: no device buffer */
    cgn_node *c = add_memcpy(g, (CUdeviceptr)(uintptr_t)whole, src, span);
    cgn_exec *x;
    OK(cgn_graph_instantiate(g, &x));
    cgn_memcpy_update u = CGN_MEMCPY_UPDATE_INIT;
    cgn_memcpy_update_set_dst(&u, holed, NULL);
    assert_int_equal(cgn_memcpy_node_update(c, &u), CGN_ERROR_INVALID_VALUE);
    assert_int_equal(cgn_memcpy_exec_update(x, c, &u), CGN_ERROR_INVALID_VALUE);
    assert_memcpy_is(c, (CUdeviceptr)(uintptr_t)whole, src, span);
    cgn_memcpy_desc got;
    OK(cgn_memcpy_exec_get(x, c, &got));
    assert_int_equal(got.dst, (CUdeviceptr)(uintptr_t)whole);
    /* The first page alone is mapped: fine. */
    cgn_memcpy_update_set_size(&u, page);
    OK(cgn_memcpy_exec_update(x, c, &u));
    OK(cgn_exec_destroy(x));
    assert_int_equal(cgn_test_count_nodes(g), 1);
    OK(cgn_graph_destroy(g));
    assert_int_equal(munmap(m, page), 0);
    assert_int_equal(munmap(m + 3 * page, page), 0);
    assert_int_equal(munmap(whole, span), 0);
    assert_int_equal(munmap(from, span), 0);
}

int main(void) {
    cgn_test_env probe; /* a GPU build without a device skips (77) */
    int rc = cgn_test_env_open(&probe);
    if (rc != 0)
        return rc;
    cgn_test_env_close(&probe);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_add_checks_the_last_byte, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_update_of_size_alone_rechecks, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_exec_update_rechecks_its_copy, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_size_beyond_the_address_space, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_memcpy_3d_rows_and_offsets, cgn_test_fixture_setup,
                                        cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_size_loop_within_a_checked_extent,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_read_only_destination_is_refused,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
        cmocka_unit_test_setup_teardown(test_hole_inside_the_copy_is_refused,
                                        cgn_test_fixture_setup, cgn_test_fixture_teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
