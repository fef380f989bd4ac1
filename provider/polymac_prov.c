/* polymac_prov.c -- an OpenSSL 3 provider module offering EVP_MAC
 *                   "POLY1305" (property provider=polymac), computed by
 *                   libpolymac's streaming calls */
/* SPDX-License-Identifier: MIT */
/* Copyright (c) 2026 the libpolymac authors */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include <openssl/core.h>
#include <openssl/core_dispatch.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/params.h>
#include <openssl/proverr.h>

#include <polymac.h>

/* The MAC keeps the parameters and the behaviour of the default
 * provider's POLY1305 (OpenSSL's providers/implementations/macs/
 * poly1305_prov.c): the key comes with init or as the "key" parameter and
 * must be 32 bytes; "size" is readable; init without a key restarts the
 * message only while nothing was absorbed; update and final need a key.
 * Unlike OpenSSL 3.0's own code, update or final without a key, a NULL
 * output, a too small output and a use after final are refused with an
 * error instead of crashing or giving a tag of garbage. */
struct pm_prov;
struct pm_ctx {
    const struct pm_prov *prov;
    int key_set;
    int updated;           /* update or final ran since the key was set */
    polymac_state st;
};

/* Errors go to the error queue of the libcrypto that loaded the module,
 * through the functions its core hands over at init: a process may hold
 * another libcrypto beside the one this module is linked with (a Python
 * wheel bundles its own), and the error must reach the caller's. */
struct pm_prov {            /* the provider context, one per library context */
    const OSSL_CORE_HANDLE *handle;
    OSSL_FUNC_core_new_error_fn *new_error;
    OSSL_FUNC_core_set_error_debug_fn *set_error_debug;
    OSSL_FUNC_core_vset_error_fn *vset_error;
    char buildinfo[96];    /* libpolymac's version and kernel at load */
};

#define pm_error(c, reason, ...) \
    pm_raise((c)->prov, OPENSSL_FILE, OPENSSL_LINE, __func__, (reason), __VA_ARGS__)
static int pm_raise(const struct pm_prov *p, const char *file, int line, const char *func,
                    int reason, const char *fmt, ...)
{
    va_list ap;
    if (!p->new_error || !p->set_error_debug || !p->vset_error)
        return 0;
    p->new_error(p->handle);
    p->set_error_debug(p->handle, file, line, func);
    va_start(ap, fmt);
    p->vset_error(p->handle, ERR_PACK(ERR_LIB_PROV, 0, reason), fmt, ap);
    va_end(ap);
    return 0;
}

/* The error libpolymac's code becomes; 0 for the caller. */
static int pm_fail(const struct pm_ctx *c, int rc)
{
    if (rc == POLYMAC_ESTATE)
        return pm_error(c, ERR_R_INTERNAL_ERROR, "libpolymac: message already finished; set a key again");
    return pm_error(c, ERR_R_INTERNAL_ERROR, "libpolymac error %d", rc);
}

static void *pm_newctx(void *provctx)
{
    struct pm_ctx *c = OPENSSL_zalloc(sizeof *c);
    if (c)
        c->prov = provctx;
    return c;
}

static void pm_freectx(void *vctx)
{
    OPENSSL_clear_free(vctx, sizeof(struct pm_ctx));
}

static void *pm_dupctx(void *vsrc)
{
    struct pm_ctx *dst = OPENSSL_malloc(sizeof *dst);
    if (dst)
        memcpy(dst, vsrc, sizeof *dst);   /* a live state may be copied */
    return dst;
}

static int pm_setkey(struct pm_ctx *c, const unsigned char *key, size_t keylen)
{
    int rc;
    if (key == NULL || keylen != POLYMAC_KEYBYTES)
        return pm_error(c, PROV_R_INVALID_KEY_LENGTH, NULL);
    if ((rc = polymac_init(&c->st, key)) != POLYMAC_OK)
        return pm_fail(c, rc);
    c->updated = 0;
    c->key_set = 1;
    return 1;
}

static int pm_set_ctx_params(void *vctx, const OSSL_PARAM params[])
{
    struct pm_ctx *c = vctx;
    const OSSL_PARAM *p;
    if (c == NULL)
        return 0;
    if (params == NULL)
        return 1;
    p = OSSL_PARAM_locate_const(params, OSSL_MAC_PARAM_KEY);
    if (p == NULL)
        return 1;
    /* OpenSSL 3.0 refuses another type silently, 3.5 takes its bytes:
     * refused here, with an error */
    if (p->data_type != OSSL_PARAM_OCTET_STRING)
        return pm_error(c, PROV_R_INVALID_KEY_LENGTH, "the key must be an octet string");
    return pm_setkey(c, p->data, p->data_size);
}

static int pm_init(void *vctx, const unsigned char *key, size_t keylen, const OSSL_PARAM params[])
{
    struct pm_ctx *c = vctx;
    if (!pm_set_ctx_params(c, params))
        return 0;
    if (key != NULL)
        return pm_setkey(c, key, keylen);
    /* a key authenticates one message: no restart once it absorbed data */
    return c->updated == 0;
}

static int pm_update(void *vctx, const unsigned char *in, size_t len)
{
    struct pm_ctx *c = vctx;
    int rc;
    if (!c->key_set)
        return pm_error(c, PROV_R_NO_KEY_SET, NULL);
    c->updated = 1;
    if (len == 0)
        return 1;
    if ((rc = polymac_update(&c->st, in, len)) != POLYMAC_OK)
        return pm_fail(c, rc);
    return 1;
}

static int pm_final(void *vctx, unsigned char *out, size_t *outl, size_t outsize)
{
    struct pm_ctx *c = vctx;
    int rc;
    if (!c->key_set)
        return pm_error(c, PROV_R_NO_KEY_SET, NULL);
    if (out == NULL || outl == NULL)
        return pm_error(c, ERR_R_PASSED_NULL_PARAMETER, NULL);
    if (outsize < POLYMAC_TAGBYTES)
        return pm_error(c, PROV_R_OUTPUT_BUFFER_TOO_SMALL, NULL);
    c->updated = 1;
    if ((rc = polymac_final(&c->st, out)) != POLYMAC_OK)
        return pm_fail(c, rc);
    *outl = POLYMAC_TAGBYTES;
    return 1;
}

static const OSSL_PARAM pm_gettable[] = {
    OSSL_PARAM_size_t(OSSL_MAC_PARAM_SIZE, NULL),
    OSSL_PARAM_END
};
static const OSSL_PARAM *pm_gettable_params(void *provctx)
{
    (void)provctx;
    return pm_gettable;
}

static int pm_get_params(OSSL_PARAM params[])
{
    OSSL_PARAM *p = OSSL_PARAM_locate(params, OSSL_MAC_PARAM_SIZE);
    return p == NULL || OSSL_PARAM_set_size_t(p, POLYMAC_TAGBYTES);
}

static const OSSL_PARAM pm_settable[] = {
    OSSL_PARAM_octet_string(OSSL_MAC_PARAM_KEY, NULL, 0),
    OSSL_PARAM_END
};
static const OSSL_PARAM *pm_settable_ctx_params(void *vctx, void *provctx)
{
    (void)vctx;
    (void)provctx;
    return pm_settable;
}

typedef void (*pm_fn)(void);
static const OSSL_DISPATCH pm_mac_functions[] = {
    {OSSL_FUNC_MAC_NEWCTX, (pm_fn)pm_newctx},
    {OSSL_FUNC_MAC_DUPCTX, (pm_fn)pm_dupctx},
    {OSSL_FUNC_MAC_FREECTX, (pm_fn)pm_freectx},
    {OSSL_FUNC_MAC_INIT, (pm_fn)pm_init},
    {OSSL_FUNC_MAC_UPDATE, (pm_fn)pm_update},
    {OSSL_FUNC_MAC_FINAL, (pm_fn)pm_final},
    {OSSL_FUNC_MAC_GETTABLE_PARAMS, (pm_fn)pm_gettable_params},
    {OSSL_FUNC_MAC_GET_PARAMS, (pm_fn)pm_get_params},
    {OSSL_FUNC_MAC_SETTABLE_CTX_PARAMS, (pm_fn)pm_settable_ctx_params},
    {OSSL_FUNC_MAC_SET_CTX_PARAMS, (pm_fn)pm_set_ctx_params},
    {0, NULL}
};

static const OSSL_ALGORITHM pm_macs[] = {
    {"POLY1305", "provider=polymac", pm_mac_functions, "Poly1305 (RFC 8439) by libpolymac"},
    {NULL, NULL, NULL, NULL}
};

/* ---- the provider itself ---- */

static const OSSL_ALGORITHM *pm_query(void *provctx, int operation_id, int *no_cache)
{
    (void)provctx;
    *no_cache = 0;
    return operation_id == OSSL_OP_MAC ? pm_macs : NULL;
}

static const OSSL_PARAM pm_prov_gettable[] = {
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_NAME, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_VERSION, NULL, 0),
    OSSL_PARAM_utf8_ptr(OSSL_PROV_PARAM_BUILDINFO, NULL, 0),
    OSSL_PARAM_int(OSSL_PROV_PARAM_STATUS, NULL),
    OSSL_PARAM_END
};
static const OSSL_PARAM *pm_prov_gettable_params(void *provctx)
{
    (void)provctx;
    return pm_prov_gettable;
}

/* buildinfo names the kernel libpolymac had selected when the module was
 * loaded (`openssl list -providers -verbose` shows it) */
static int pm_prov_get_params(void *provctx, OSSL_PARAM params[])
{
    const struct pm_prov *prov = provctx;
    OSSL_PARAM *p;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_NAME);
    if (p && !OSSL_PARAM_set_utf8_ptr(p, "libpolymac Poly1305 provider"))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_VERSION);
    if (p && !OSSL_PARAM_set_utf8_ptr(p, polymac_version()))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_BUILDINFO);
    if (p && !OSSL_PARAM_set_utf8_ptr(p, prov->buildinfo))
        return 0;
    p = OSSL_PARAM_locate(params, OSSL_PROV_PARAM_STATUS);
    if (p && !OSSL_PARAM_set_int(p, 1))
        return 0;
    return 1;
}

static void pm_teardown(void *provctx)
{
    OPENSSL_free(provctx);
}

static const OSSL_DISPATCH pm_provider_functions[] = {
    {OSSL_FUNC_PROVIDER_TEARDOWN, (pm_fn)pm_teardown},
    {OSSL_FUNC_PROVIDER_GETTABLE_PARAMS, (pm_fn)pm_prov_gettable_params},
    {OSSL_FUNC_PROVIDER_GET_PARAMS, (pm_fn)pm_prov_get_params},
    {OSSL_FUNC_PROVIDER_QUERY_OPERATION, (pm_fn)pm_query},
    {0, NULL}
};

/* The module's one entry point, the name OpenSSL looks for. */
__attribute__((visibility("default"))) OSSL_provider_init_fn OSSL_provider_init;
int OSSL_provider_init(const OSSL_CORE_HANDLE *handle, const OSSL_DISPATCH *in,
                       const OSSL_DISPATCH **out, void **provctx)
{
    struct pm_prov *p = OPENSSL_zalloc(sizeof *p);
    if (!p)
        return 0;
    p->handle = handle;
    snprintf(p->buildinfo, sizeof p->buildinfo, "libpolymac %s, kernel %s", polymac_version(),
             polymac_backend_name());
    for (; in->function_id != 0; in++) {
        switch (in->function_id) {
        case OSSL_FUNC_CORE_NEW_ERROR:
            p->new_error = OSSL_FUNC_core_new_error(in);
            break;
        case OSSL_FUNC_CORE_SET_ERROR_DEBUG:
            p->set_error_debug = OSSL_FUNC_core_set_error_debug(in);
            break;
        case OSSL_FUNC_CORE_VSET_ERROR:
            p->vset_error = OSSL_FUNC_core_vset_error(in);
            break;
        }
    }
    *out = pm_provider_functions;
    *provctx = p;
    return 1;
}
