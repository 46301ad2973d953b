from django.http import Http404, JsonResponse

from .models import Order


def order(request, order_id):
    """The order as JSON, its ids as decimal strings (a JavaScript client reads them exactly)."""
    try:
        o = Order.objects.get(pk=order_id)  # the field reads the decimal text by the core's rule
    except (Order.DoesNotExist, ValueError, TypeError):
        raise Http404(order_id)
    return JsonResponse({"id": str(o.pk), "tracking": str(o.tracking),
                         "customer_id": str(o.customer_id), "note": o.note})
